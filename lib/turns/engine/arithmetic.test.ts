import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatRequest, ModelClient } from '@/lib/models/types';
import { looksLikeArithmetic, planAndCompute } from './arithmetic';

test('the free arithmetic check: sums and products yes, identifiers no', () => {
  for (const q of ['What is 23 * 47 + 156?', 'how much is 12.5 times 4 minus 7', '17% of 240', '3^4 - 1', 'what is 1/3 + 1/6'])
    assert.equal(looksLikeArithmetic(q), true, q);
  for (const q of [
    'Please read 9d2f41c0-427a-4b1e-9c3a-5f0e2d8b7a61',
    'What happened on 2026-11-30?',
    'Meet at 10:30 - or 11:00?',
    'Upgrade from v1.2.3 to 1.4.0',
    'Error code E404-2 on sha256 a3f9e1b2',
    'Explain closures.',
    'Call me on 555-0100',
  ])
    assert.equal(looksLikeArithmetic(q), false, q);
});

test('the free arithmetic check: each cue word counts, a lone number or a phone-like dash does not', () => {
  for (const cue of [
    'plus',
    'minus',
    'times',
    'multiplied by',
    'divided by',
    'over',
    'sum of',
    'product of',
    'difference of',
    'total of',
    'add',
    'subtract',
    'percent of',
    'squared and',
    'cubed and',
    'half of',
    'twice',
  ]) {
    assert.equal(looksLikeArithmetic(`3 ${cue} 4`), true, cue);
  }
  for (const op of ['+', '-', '*', '/', '×', '÷', '^', '%']) assert.equal(looksLikeArithmetic(`3 ${op} 4`), true, op);
  assert.equal(looksLikeArithmetic('What is 3 plus x?'), false, 'one number');
  assert.equal(looksLikeArithmetic('Rooms 12 and 14'), false, 'two numbers, no cue');
  assert.equal(looksLikeArithmetic('Call 555-0100 or 555-0199'), false, 'dashes between digits are not minus signs');
  assert.equal(looksLikeArithmetic('PLUS: 2 PLUS 2'), true, 'cue words in any case');
  assert.equal(looksLikeArithmetic('at 10:30:15 and 11:00 plus'), false, 'times with seconds are identifiers');
  assert.equal(looksLikeArithmetic('2026-11-30T10:30 plus 2026-12-01 10:30:00'), false, 'dates with times are identifiers');
  assert.equal(
    looksLikeArithmetic('Add the meeting on 2026-11-30 to my notes'),
    false,
    'a date alone, beside a cue word, is an identifier',
  );
  assert.equal(looksLikeArithmetic('V1.2.3 plus 4.5.6'), false, 'versions in any case');
  assert.equal(looksLikeArithmetic('9D2F41C0-427A-4B1E-9C3A-5F0E2D8B7A61 plus 2'), false, 'upper-case UUIDs');
  assert.equal(looksLikeArithmetic('1.5 plus 2.25'), true, 'decimals are numbers');
});

function planModel(content: string | Error) {
  const requests: ChatRequest[] = [];
  const model: ModelClient = {
    async health() {
      return { url: 'x', reachable: true };
    },
    async chat(req) {
      requests.push(req);
      if (content instanceof Error) throw content;
      return {
        content,
        reasoning: '',
        toolCalls: [],
        finishReason: 'stop',
        usage: { promptTokens: 1, completionTokens: 1 },
        tokenProbs: null,
        model: 'm',
      };
    },
  };
  return { model, requests };
}

test('the plan: the model is asked for one expression under a schema, at temperature 0, and the program computes it', async () => {
  const { model, requests } = planModel('{"expression": "23 * 47 + 156"}');
  const out = await planAndCompute(model, 'What is 23 * 47 + 156?');
  assert.deepEqual(out, { ok: true, calculation: { expression: '23 * 47 + 156', result: '1237', exact: true } });
  assert.equal(requests.length, 1);
  const req = requests[0];
  assert.equal(req.temperature, 0);
  assert.equal(req.maxTokens, 120);
  assert.deepEqual(req.messages[1], { role: 'user', content: 'What is 23 * 47 + 156?' });
  assert.equal(req.messages[0].role, 'system');
  assert.match(String(req.messages[0].content), /^Write the calculation the user asks for as one arithmetic expression/);
  assert.deepEqual(req.jsonSchema, {
    type: 'object',
    properties: { expression: { type: 'string', pattern: '^[0-9.+*/^%() -]{1,300}$' } },
    required: ['expression'],
    additionalProperties: false,
  });
});

test('the plan: anything but numbers and operators, extra keys, an empty or overlong plan, or prose is refused with a diagnostic', async () => {
  for (const content of [
    '{"expression": "Math.pow(2,3)"}',
    '{"expression": "2+2", "note": "x"}',
    '{"expression": ""}',
    `{"expression": "${'1+'.repeat(150)}1"}`,
    'It is 4.',
    '{"expression": "2+2\\n"}',
  ]) {
    const out = await planAndCompute(planModel(content).model, 'q');
    assert.equal(out.ok, false, content);
    assert.equal(!out.ok && out.diagnostic, `the plan was not in the expected shape: ${JSON.stringify(content.slice(0, 200))}`, content);
  }
  const fenced = await planAndCompute(planModel('```json\n{"expression": "2^10"}\n```').model, 'q');
  assert.deepEqual(fenced, { ok: true, calculation: { expression: '2^10', result: '1024', exact: true } }, 'a fenced plan is read');
});

test('the plan: one that cannot be computed says why; a model failure is not swallowed', async () => {
  const out = await planAndCompute(planModel('{"expression": "1/0"}').model, 'q');
  assert.equal(out.ok, false);
  assert.match(!out.ok ? out.diagnostic : '', /^the plan could not be computed: .*zero/);
  await assert.rejects(planAndCompute(planModel(new Error('server down')).model, 'q'), /server down/);
});

test('the free arithmetic check at its edges: numbers of several digits, identifiers of every shape, spaced minus signs', () => {
  const cases: Array<[string, boolean, string]> = [
    ['What is 250 squared?', false, 'a number of several digits is one number'],
    ['What is 3.14 squared?', false, 'a decimal is one number'],
    ['What is the total for order 12345678-1234-1234-1234-123456789012?', false, 'a UUID of digits only'],
    ['What is the total at 2026-11-30 10:15:30 and 2026-12-01 09:00:45?', false, 'dates with times to the second'],
    ['What is the total between 10:15:30 and 11:20:45?', false, 'times to the second'],
    ['What is the total size of release 10.22.33?', false, 'a version whose parts have several digits'],
    ['What is the total for part 123abc and 456def?', false, 'words that start with digits'],
    ['What is the total for part abc123 and def456?', false, 'words that end with digits'],
    ['555-1234 or 555-9876?', false, 'a dash between digits at the very start'],
    ['Rooms 4-6 or 7-9?', false, 'dashes between single digits'],
    ['What is 5 -3?', true, 'a minus sign with a space before it'],
    ['What is 2.v1.2.3-3?', true, 'an identifier leaves a gap, so "2." and "-3" around it do not join into a range'],
  ];
  for (const [question, expected, why] of cases) assert.equal(looksLikeArithmetic(question), expected, `${why}: ${question}`);
});

test('the plan call is stopped with the turn: it carries the turn’s signal', async () => {
  const signals: (AbortSignal | undefined)[] = [];
  const { model } = planModel('{"expression": "1 + 1"}');
  const chat = model.chat.bind(model);
  model.chat = (req, opts) => (signals.push(opts?.signal), chat(req, opts));
  const controller = new AbortController();
  await planAndCompute(model, 'What is 1 + 1?', controller.signal);
  assert.deepEqual(signals, [controller.signal]);
});
