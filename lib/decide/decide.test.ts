import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readTokenProbs } from '@/lib/llm/client';
import { scriptedModel } from '@/lib/testing/scripted-model';
import { DecideDefinitionError, defineDecideStep, parseAnswerJson } from './decide';
import { valueDistribution } from './probabilities';

const samples = path.resolve(import.meta.dirname, '../../e2e/double/samples');
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
    const model = scriptedModel({ decide: () => ({ content: sample31.choices[0].message.content, tokenProbs: tokens31, model: 'tiny-toy' }) });
    const step = defineDecideStep({ id: 'sky', system: 's', questions: { verdict: { kind: 'choice', instructions: 'blue?', options: ['yes', 'no', 'unsure'] } } });
    const record = await step.run({ model, input: 'Is the sky blue?', now: () => 5 });
    assert.equal(record.source, 'native');
    assert.deepEqual(record.answers.verdict, { kind: 'choice', value: 'yes', p: 0.4016 });
    assert.equal(record.at, 5);
    assert.equal(record.modelId, 'tiny-toy');
  });

  test('a fenced answer with free whitespace is found', () => {
    const t = (token: string, top: [string, number][] = [[token, 1]]) => ({ token, prob: top[0][1], top: top.map(([tk, prob]) => ({ token: tk, prob })) });
    const tokens = [t('```json\n'), t('{\n  "'), t('needs_fresh'), t('":'), t(' tr', [[' tr', 0.7], [' f', 0.3]]), t('ue'), t('}')];
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
    const step = defineDecideStep({ id: 'x', system: 's', together: true, questions: { a: { kind: 'boolean', instructions: 'a' }, b: { kind: 'boolean', instructions: 'b' } } });
    const r = await step.run({ model, input: 'q' });
    assert.equal(model.decideRequests.length, 1);
    assert.equal((r.answers.b as { value: boolean }).value, false);
  });

  test('a score value is the probability-weighted mean of the levels', async () => {
    const t = (token: string, top: [string, number][] = [[token, 1]]) => ({ token, prob: top[0][1], top: top.map(([tk, prob]) => ({ token: tk, prob })) });
    const tokens = [t('{"urgency":"'), t('m', [['m', 0.6], ['h', 0.35], ['l', 0.05]]), t('edium"}')];
    const model = scriptedModel({ decide: () => ({ content: '{"urgency":"medium"}', tokenProbs: tokens }) });
    const step = defineDecideStep({ id: 'u', system: 's', questions: { urgency: { kind: 'score', instructions: 'u', levels: [{ label: 'low' }, { label: 'medium' }, { label: 'high' }] } } });
    const r = await step.run({ model, input: 'q' });
    assert.deepEqual(r.answers.urgency, { kind: 'score', level: 'medium', value: 1.3 });
    assert.equal(r.source, 'native');
  });

  test('an invalid answer is retried once, then kept as a refusal (never a throw)', async () => {
    const model = scriptedModel({ decide: () => ({ content: '{"verdict": "perhaps"}' }) });
    const step = defineDecideStep({ id: 'v', system: 's', questions: { verdict: { kind: 'choice', instructions: 'v', options: ['answered', 'research'] } }, text: { query: 'q' } });
    const r = await step.run({ model, input: 'q' });
    assert.equal(model.decideRequests.length, 2);
    assert.equal((r.answers.verdict as { refused: boolean }).refused, true);
    assert.equal((r.answers.query as { refused: boolean }).refused, true);
    const broken = scriptedModel({ decide: () => new Error('boom') });
    const r2 = await step.run({ model: broken, input: 'q' });
    assert.ok('refused' in r2.answers.verdict);
  });

  test('bad definitions are typed errors at definition time', () => {
    assert.throws(() => defineDecideStep({ id: 'a', system: 's', questions: { s: { kind: 'score', instructions: 'x', levels: [] } } }), DecideDefinitionError);
    assert.throws(() => defineDecideStep({ id: 'a', system: 's', questions: { s: { kind: 'guess', instructions: 'x' } as never } }), DecideDefinitionError);
    assert.throws(() => defineDecideStep({ id: 'a', system: 's', questions: { c: { kind: 'choice', instructions: 'x', options: ['one'] } } }), DecideDefinitionError);
    assert.throws(() => defineDecideStep({ id: 'a', system: 's', questions: {} }), DecideDefinitionError);
  });

  test('parseAnswerJson cuts a fence or leading text and refuses non-objects', () => {
    assert.deepEqual(parseAnswerJson('```json\n{"a":1}\n```'), { a: 1 });
    assert.equal(parseAnswerJson('[1]'), null);
    assert.equal(parseAnswerJson('nope'), null);
  });
});
