import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readTokenProbs } from '@/lib/models/client';
import { scriptedModel } from '@/lib/dev/testing/scripted-model';
import { HearthError } from '@/lib/shared/errors';
import { DecideDefinitionError, defineDecideStep, parseAnswerJson } from './decide';
import { valueDistribution } from './probabilities';

const samples = path.resolve(import.meta.dirname, '../../../e2e/double/samples');
const sample31 = JSON.parse(fs.readFileSync(path.join(samples, '31-verdict-post-sampling-probs.response.json'), 'utf8'));
const tokens31 = readTokenProbs(sample31.choices[0].logprobs.content)!;

describe('grammar-aware probabilities', () => {
  test('sample 31: the value split over many tokens sums to yes .40, no .28, unsure .32', () => {
    const dist = valueDistribution(tokens31, 'verdict', ['yes', 'no', 'unsure'], true)!;
    assert.ok(Math.abs(dist.yes - 0.402) < 0.01, String(dist.yes));
    assert.ok(Math.abs(dist.no - 0.277) < 0.01, String(dist.no));
    assert.ok(Math.abs(dist.unsure - 0.321) < 0.01, String(dist.unsure));
  });

  test('the answer is read from the probabilities, not the sampled text', async () => {
    const model = scriptedModel({
      decide: () => ({ content: sample31.choices[0].message.content, tokenProbs: tokens31, model: 'tiny-toy' }),
    });
    const step = defineDecideStep({
      id: 'sky',
      system: 's',
      questions: { verdict: { kind: 'choice', instructions: 'blue?', options: ['yes', 'no', 'unsure'] } },
    });
    const record = await step.run({ model, input: 'Is the sky blue?', now: () => 5 });
    assert.equal(record.source, 'native');
    assert.deepEqual(record.answers.verdict, { kind: 'choice', value: 'yes', p: 0.4016 });
    assert.equal(record.at, 5);
    assert.equal(record.modelId, 'tiny-toy');
  });

  test('a fenced answer with free whitespace is found', () => {
    const t = (token: string, top: [string, number][] = [[token, 1]]) => ({
      token,
      prob: top[0][1],
      top: top.map(([tk, prob]) => ({ token: tk, prob })),
    });
    const tokens = [
      t('```json\n'),
      t('{\n  "'),
      t('needs_fresh'),
      t('":'),
      t(' tr', [
        [' tr', 0.7],
        [' f', 0.3],
      ]),
      t('ue'),
      t('}'),
    ];
    const dist = valueDistribution(tokens, 'needs_fresh', ['true', 'false'], false)!;
    assert.ok(Math.abs(dist.true - 0.7) < 1e-9 && Math.abs(dist.false - 0.3) < 1e-9);
  });

  test('missing probabilities give null (the caller falls back to an estimate)', () => {
    assert.equal(valueDistribution([], 'x', ['a', 'b'], true), null);
  });
});

describe('decide steps', () => {
  test('boolean, choice and score answers with estimated probabilities when none come back', async () => {
    const model = scriptedModel({
      decide: (req) => {
        const props = Object.keys((req.jsonSchema as { properties: object }).properties);
        if (props.includes('isUrgent')) return { content: '{"isUrgent": true}' };
        if (props.includes('destination')) return { content: '{"destination":"billing","why":"card"}' };
        return { content: '{"urgency":"medium"}' };
      },
    });
    const step = defineDecideStep({
      id: 'triage',
      system: 's',
      questions: {
        destination: { kind: 'choice', instructions: 'where', options: ['billing', 'support'] },
        isUrgent: { kind: 'boolean', instructions: 'urgent?' },
        urgency: { kind: 'score', instructions: 'how urgent', levels: [{ label: 'low' }, { label: 'medium' }, { label: 'high' }] },
      },
      text: { why: 'a reason' },
    });
    const r = await step.run({ model, input: 'my card was charged twice' });
    assert.equal(r.source, 'estimated');
    assert.deepEqual(r.answers.destination, { kind: 'choice', value: 'billing', p: 1 });
    assert.deepEqual(r.answers.isUrgent, { kind: 'boolean', value: true, p: 1 });
    assert.deepEqual(r.answers.urgency, { kind: 'score', level: 'medium', value: 1 });
    assert.deepEqual(r.answers.why, { kind: 'text', value: 'card' });
    assert.equal(model.decideRequests.length, 3, 'one call per question by default');
    const req = model.decideRequests[0];
    assert.equal(req.tokenProbs, 20, 'grammar-aware probabilities are asked for');
    assert.deepEqual((req.jsonSchema as { required: string[] }).required, ['destination', 'why']);
  });

  test('together: several questions in one call when asked', async () => {
    const model = scriptedModel({ decide: () => ({ content: '{"a": true, "b": false}' }) });
    const step = defineDecideStep({
      id: 'x',
      system: 's',
      together: true,
      questions: { a: { kind: 'boolean', instructions: 'a' }, b: { kind: 'boolean', instructions: 'b' } },
    });
    const r = await step.run({ model, input: 'q' });
    assert.equal(model.decideRequests.length, 1);
    assert.equal((r.answers.b as { value: boolean }).value, false);
  });

  test('a score value is the probability-weighted mean of the levels', async () => {
    const t = (token: string, top: [string, number][] = [[token, 1]]) => ({
      token,
      prob: top[0][1],
      top: top.map(([tk, prob]) => ({ token: tk, prob })),
    });
    const tokens = [
      t('{"urgency":"'),
      t('m', [
        ['m', 0.6],
        ['h', 0.35],
        ['l', 0.05],
      ]),
      t('edium"}'),
    ];
    const model = scriptedModel({ decide: () => ({ content: '{"urgency":"medium"}', tokenProbs: tokens }) });
    const step = defineDecideStep({
      id: 'u',
      system: 's',
      questions: { urgency: { kind: 'score', instructions: 'u', levels: [{ label: 'low' }, { label: 'medium' }, { label: 'high' }] } },
    });
    const r = await step.run({ model, input: 'q' });
    assert.deepEqual(r.answers.urgency, { kind: 'score', level: 'medium', value: 1.3 });
    assert.equal(r.source, 'native');
  });

  test('an invalid answer is retried once, then kept as a refusal (never a throw)', async () => {
    const model = scriptedModel({ decide: () => ({ content: '{"verdict": "perhaps"}' }) });
    const step = defineDecideStep({
      id: 'v',
      system: 's',
      questions: { verdict: { kind: 'choice', instructions: 'v', options: ['answered', 'research'] } },
      text: { query: 'q' },
    });
    const r = await step.run({ model, input: 'q' });
    assert.equal(model.decideRequests.length, 2);
    assert.equal((r.answers.verdict as { refused: boolean }).refused, true);
    assert.equal((r.answers.query as { refused: boolean }).refused, true);
    const broken = scriptedModel({ decide: () => new Error('boom') });
    const r2 = await step.run({ model: broken, input: 'q' });
    assert.ok('refused' in r2.answers.verdict);
  });

  test('bad definitions are typed errors at definition time', () => {
    assert.throws(
      () => defineDecideStep({ id: 'a', system: 's', questions: { s: { kind: 'score', instructions: 'x', levels: [] } } }),
      DecideDefinitionError,
    );
    assert.throws(
      () => defineDecideStep({ id: 'a', system: 's', questions: { s: { kind: 'guess', instructions: 'x' } as never } }),
      DecideDefinitionError,
    );
    assert.throws(
      () => defineDecideStep({ id: 'a', system: 's', questions: { c: { kind: 'choice', instructions: 'x', options: ['one'] } } }),
      DecideDefinitionError,
    );
    assert.throws(() => defineDecideStep({ id: 'a', system: 's', questions: {} }), DecideDefinitionError);
  });

  test('parseAnswerJson cuts a fence or leading text and refuses non-objects', () => {
    assert.deepEqual(parseAnswerJson('```json\n{"a":1}\n```'), { a: 1 });
    assert.equal(parseAnswerJson('[1]'), null);
    assert.equal(parseAnswerJson('nope'), null);
  });
});

describe('decide steps: what is asked and what comes back, exactly', () => {
  const verdictStep = (extra: Partial<Parameters<typeof defineDecideStep>[0]> = {}) =>
    defineDecideStep({
      id: 'verdict',
      system: 'Judge the draft.',
      questions: { verdict: { kind: 'choice', instructions: 'what the draft does', options: ['answered', 'research'] } },
      text: { query: 'the search to run' },
      ...extra,
    });

  test('the request: the step system message, the input, a strict schema with the text field capped, 96 tokens at temperature 0.2, 20 top probabilities', async () => {
    const model = scriptedModel({ decide: () => ({ content: '{"verdict": "answered", "query": ""}', model: 'qwen.gguf' }) });
    const r = await verdictStep().run({ model, input: 'Q and draft', now: () => 1234 });
    const req = model.decideRequests[0];
    assert.deepEqual(req.messages, [
      { role: 'system', content: 'Judge the draft.' },
      { role: 'user', content: 'Q and draft' },
    ]);
    assert.deepEqual(req.jsonSchema, {
      type: 'object',
      properties: {
        verdict: { type: 'string', enum: ['answered', 'research'], description: 'what the draft does' },
        query: { type: 'string', maxLength: 200, description: 'the search to run' },
      },
      required: ['verdict', 'query'],
      additionalProperties: false,
    });
    assert.deepEqual([req.maxTokens, req.temperature, req.tokenProbs], [96, 0.2, 20]);
    assert.deepEqual([r.stepId, r.at, r.modelId], ['verdict', 1234, 'qwen.gguf']);
    const plain = scriptedModel({ decide: () => ({ content: '{"verdict": "answered", "query": ""}', model: '' }) });
    const r2 = await verdictStep({ probabilities: false, maxTokens: 40 }).run({ model: plain, input: 'q' });
    assert.deepEqual([plain.decideRequests[0].tokenProbs, plain.decideRequests[0].maxTokens], [undefined, 40]);
    assert.equal(r2.modelId, 'unknown', 'a server that names no model');
  });

  test('text fields are trimmed and cut to 200 characters, or empty when not text; they go with the first question only', async () => {
    const long = 'x'.repeat(250);
    const model = scriptedModel({
      decide: (req) =>
        'verdict' in (req.jsonSchema as { properties: object }).properties
          ? { content: JSON.stringify({ verdict: 'research', query: `  ${long}  ` }) }
          : { content: '{"second": true}' },
    });
    const step = defineDecideStep({
      id: 'two',
      system: 's',
      questions: {
        verdict: { kind: 'choice', instructions: 'v', options: ['answered', 'research'] },
        second: { kind: 'boolean', instructions: 'b' },
      },
      text: { query: 'q' },
    });
    const r = await step.run({ model, input: 'q' });
    assert.deepEqual(r.answers.query, { kind: 'text', value: 'x'.repeat(200) });
    assert.deepEqual(Object.keys((model.decideRequests[1].jsonSchema as { properties: object }).properties), ['second']);
    const odd = scriptedModel({ decide: () => ({ content: '{"verdict": "answered", "query": 42}' }) });
    assert.deepEqual((await verdictStep().run({ model: odd, input: 'q' })).answers.query, { kind: 'text', value: '' });
  });

  test('a refusal says why: a call that failed, an answer that was not JSON, a value outside the choices', async () => {
    const reason = async (decide: () => { content: string } | Error) =>
      (await verdictStep().run({ model: scriptedModel({ decide }), input: 'q' })).answers.verdict;
    assert.deepEqual(await reason(() => new Error('socket hang up')), { refused: true, reason: 'the call failed: socket hang up' });
    assert.deepEqual(await reason(() => ({ content: 'I think it answered.' })), {
      refused: true,
      reason: 'the answer was not a JSON object',
    });
    assert.deepEqual(await reason(() => ({ content: '{"verdict": "maybe", "query": ""}' })), {
      refused: true,
      reason: 'verdict was "maybe", not one of answered, research',
    });
    // A second try that works is taken.
    let calls = 0;
    const second = await verdictStep().run({
      model: scriptedModel({ decide: () => (++calls === 1 ? new Error('busy') : { content: '{"verdict": "research", "query": "x"}' }) }),
      input: 'q',
    });
    assert.deepEqual(second.answers.verdict, { kind: 'choice', value: 'research', p: 1 });
  });

  test('running out of budget or being stopped is not a refusal: it ends the turn', async () => {
    for (const code of ['budget_exhausted', 'cancelled'] as const) {
      const model = scriptedModel({ decide: () => new HearthError(code, 'stop') });
      await assert.rejects(verdictStep().run({ model, input: 'q' }), (err: { code?: string }) => err.code === code);
      assert.equal(model.decideRequests.length, 1, 'not retried');
    }
    const abort = new AbortController();
    abort.abort();
    const model = scriptedModel({ decide: () => new Error('aborted') });
    await assert.rejects(verdictStep().run({ model, input: 'q', signal: abort.signal }));
  });

  test('a score uses the levels’ own values when they have them; a boolean’s p is the probability of true', async () => {
    const step = defineDecideStep({
      id: 's',
      system: 's',
      questions: {
        size: {
          kind: 'score',
          instructions: 'how big',
          levels: [
            { label: 'small', value: 10 },
            { label: 'large', value: 50 },
          ],
        },
      },
    });
    const r = await step.run({ model: scriptedModel({ decide: () => ({ content: '{"size": "large"}' }) }), input: 'q' });
    assert.deepEqual(r.answers.size, { kind: 'score', level: 'large', value: 50 });
    const t = (token: string, top: [string, number][]) => ({ token, prob: top[0][1], top: top.map(([tk, prob]) => ({ token: tk, prob })) });
    const b = defineDecideStep({ id: 'b', system: 's', questions: { ok: { kind: 'boolean', instructions: 'ok?' } } });
    const rb = await b.run({
      model: scriptedModel({
        decide: () => ({
          content: '{"ok": false}',
          tokenProbs: [
            t('{"ok": ', [['{"ok": ', 1]]),
            t('false', [
              ['false', 0.65432],
              ['true', 0.34568],
            ]),
          ],
        }),
      }),
      input: 'q',
    });
    assert.deepEqual(rb.answers.ok, { kind: 'boolean', value: false, p: 0.3457 });
    assert.equal(rb.source, 'native');
  });

  test('definitions: a bad id, a repeated value, a text field named like a question are refused', () => {
    assert.throws(
      () => defineDecideStep({ id: '1st', system: 's', questions: { a: { kind: 'boolean', instructions: 'a' } } }),
      /bad step id "1st"/,
    );
    assert.throws(
      () => defineDecideStep({ id: 'a', system: 's', questions: { c: { kind: 'choice', instructions: 'x', options: ['one', 'one'] } } }),
      /question c repeats a value/,
    );
    assert.throws(
      () => defineDecideStep({ id: 'a', system: 's', questions: { c: { kind: 'boolean', instructions: 'x' } }, text: { c: 'x' } }),
      /text field c clashes with a question/,
    );
    assert.throws(
      () => defineDecideStep({ id: 'a', system: 's', questions: { s: { kind: 'score', instructions: 'x', levels: [{ label: 'only' }] } } }),
      /score question s needs at least two levels/,
    );
  });
});
