import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatOptions, ChatRequest, ChatResult, ModelClient, TokenProb } from '@/lib/models/types';
import { DecideDefinitionError, defineDecideStep, parseAnswerJson } from './decide';
import { valueDistribution } from './probabilities';
import { isRefusal, saidYes } from '@/lib/contract/decisions';

/** Decide steps at their edges: definitions refused by name, answers of the wrong type, who answered, and the probability reading's corner cases. */

type Reply = Partial<ChatResult> | Error;

function model(replies: Reply[] | ((req: ChatRequest) => Reply)) {
  const calls: { req: ChatRequest; options: ChatOptions | undefined }[] = [];
  const queue = Array.isArray(replies) ? [...replies] : null;
  const m: ModelClient = {
    async health() {
      return { url: 'x', reachable: true };
    },
    async chat(req, options) {
      calls.push({ req, options });
      const r = queue ? queue.shift() : (replies as (req: ChatRequest) => Reply)(req);
      if (!r) throw new Error('no reply left');
      if (r instanceof Error) throw r;
      return {
        content: '',
        reasoning: '',
        toolCalls: [],
        finishReason: 'stop',
        usage: { promptTokens: 1, completionTokens: 1 },
        tokenProbs: null,
        model: 'm',
        ...r,
      };
    },
  };
  return { m, calls };
}

test('definitions: each mistake named in its own words', () => {
  const q = { a: { kind: 'boolean' as const, instructions: 'a' } };
  assert.throws(
    () => defineDecideStep({ id: 'two words', system: 's', questions: q }),
    (e: unknown) => e instanceof DecideDefinitionError && e.message === 'bad step id "two words"',
  );
  assert.throws(() => defineDecideStep({ id: '1st', system: 's', questions: q }), /^DecideDefinitionError|bad step id "1st"/);
  assert.doesNotThrow(() => defineDecideStep({ id: 'a-b_c2', system: 's', questions: q }));
  assert.throws(
    () => defineDecideStep({ id: 'empty', system: 's', questions: {} }),
    (e: unknown) => (e as Error).message === 'step empty has no questions',
  );
  assert.throws(
    () => defineDecideStep({ id: 'odd', system: 's', questions: { x: { kind: 'number', instructions: 'x' } as never } }),
    (e: unknown) => (e as Error).message === 'question x of step odd has an unknown kind number',
  );
  assert.throws(
    () => defineDecideStep({ id: 'one', system: 's', questions: { c: { kind: 'choice', instructions: 'c', options: ['only'] } } }),
    (e: unknown) => (e as Error).message === 'choice question c needs at least two options',
  );
});

test('a boolean question is asked as a JSON boolean with its instructions', async () => {
  const { m, calls } = model([{ content: '{"urgent": false}' }]);
  const step = defineDecideStep({
    id: 'b',
    system: 's',
    questions: { urgent: { kind: 'boolean', instructions: 'is it urgent?' } },
    probabilities: false,
  });
  const record = await step.run({ model: m, input: 'x' });
  assert.deepEqual((calls[0].req.jsonSchema as { properties: unknown }).properties, {
    urgent: { type: 'boolean', description: 'is it urgent?' },
  });
  assert.deepEqual(record.answers.urgent, { kind: 'boolean', value: false, p: 0 });
});

test('the stop signal reaches the model call', async () => {
  const { m, calls } = model([{ content: '{"a": true}' }]);
  const signal = new AbortController().signal;
  await defineDecideStep({ id: 's', system: 's', questions: { a: { kind: 'boolean', instructions: 'a' } } }).run({
    model: m,
    input: 'x',
    signal,
  });
  assert.equal(calls[0].options?.signal, signal);
});

test('a boolean answered with a word is not a boolean: asked again, then refused with what came back', async () => {
  const { m, calls } = model([{ content: '{"a": "yes"}' }, { content: '{"a": "true"}' }]);
  const record = await defineDecideStep({ id: 's', system: 's', questions: { a: { kind: 'boolean', instructions: 'a' } } }).run({
    model: m,
    input: 'x',
  });
  assert.equal(calls.length, 2, 'two tries');
  assert.deepEqual(record.answers.a, { refused: true, reason: 'a was "true", not one of true, false' });
});

test('a refused step is estimated and answered by nobody known', async () => {
  const { m } = model([new Error('down'), new Error('still down')]);
  const record = await defineDecideStep({ id: 's', system: 's', questions: { a: { kind: 'boolean', instructions: 'a' } } }).run({
    model: m,
    input: 'x',
    now: () => 7,
  });
  assert.deepEqual(record, {
    stepId: 's',
    at: 7,
    modelId: 'unknown',
    source: 'estimated',
    answers: { a: { refused: true, reason: 'the call failed: still down' } },
  });
});

test('questions asked one by one: the model that answered is kept when a later question is refused', async () => {
  const { m } = model((req) => {
    const keys = Object.keys((req.jsonSchema as { properties: object }).properties);
    return keys.includes('a') ? { content: '{"a": true}', model: 'qwen' } : new Error('down');
  });
  const record = await defineDecideStep({
    id: 's',
    system: 's',
    questions: { a: { kind: 'boolean', instructions: 'a' }, b: { kind: 'boolean', instructions: 'b' } },
  }).run({ model: m, input: 'x' });
  assert.equal(record.modelId, 'qwen');
  assert.equal(isRefusal(record.answers.b), true, 'b refused');
  assert.equal(isRefusal(record.answers.a), false, 'a answered');
});

test('isRefusal: a refusal is one, an answer or nothing is not', () => {
  assert.equal(isRefusal({ refused: true, reason: 'r' }), true);
  assert.equal(isRefusal({ kind: 'text', value: 'refused' }), false);
  assert.equal(isRefusal({ kind: 'boolean', value: true, p: 1 }), false);
  assert.equal(isRefusal(undefined), false);
});

test('parseAnswerJson: the outer object, or null', () => {
  assert.deepEqual(parseAnswerJson('Sure! {"a": {"b": 1}} hope that helps'), { a: { b: 1 } });
  for (const bad of ['', 'no json', '}{', '{', '}', '{"a": 1', '[1, 2]', '{"a": 1} and {"b": 2}'])
    assert.equal(parseAnswerJson(bad), null, JSON.stringify(bad));
});

/** A token whose alternatives are given as [text, probability]. */
const tok = (token: string, top: [string, number][] = [[token, 1]]): TokenProb => ({
  token,
  prob: top[0][1],
  top: top.map(([t, prob]) => ({ token: t, prob })),
});

test('probabilities: an alternative that stops right at the marker says nothing about the value', () => {
  const tokens = [
    tok('{"ok"'),
    tok(': true', [
      [': true', 0.6],
      [':', 0.4],
    ]),
    tok('}'),
  ];
  assert.deepEqual(valueDistribution(tokens, 'ok', ['true', 'false'], false), { true: 1, false: 0 });
});

test('probabilities: a token running past the value (its closing brace with it) still counts for the value', () => {
  const tokens = [
    tok('{"ok":'),
    tok('true}', [
      ['true}', 0.75],
      ['false}', 0.25],
    ]),
  ];
  assert.deepEqual(valueDistribution(tokens, 'ok', ['true', 'false'], false), { true: 0.75, false: 0.25 });
});

test('saidYes: only a boolean answer of yes is a yes', () => {
  assert.equal(saidYes({ kind: 'boolean', value: true, p: 0.9 }), true, 'yes');
  assert.equal(saidYes({ kind: 'boolean', value: false, p: 0.1 }), false, 'no');
  assert.equal(saidYes({ kind: 'choice', value: 'yes', p: 0.9 }), false, 'a choice named yes');
  assert.equal(saidYes({ kind: 'text', value: 'yes' }), false, 'the text yes');
  assert.equal(saidYes({ kind: 'score', level: 'high', value: 1 }), false, 'a score');
  assert.equal(saidYes({ refused: true, reason: 'no valid answer' }), false, 'a refusal');
  assert.equal(saidYes(undefined), false, 'no answer at all');
});
