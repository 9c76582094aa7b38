import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DecideAnswer, DecisionRecord } from '@/lib/contract/decisions';
import { freshnessStep, runGate, verdictStep, type GateInput } from './gate';
import { verdictInput } from './prompts';

/**
 * The gate alone, with its two model checks scripted: each case states the outcome a person
 * would expect, with the nudge's words written out rather than taken from prompts.ts.
 */

const SEARCH_NOW =
  'That does not answer the question. Call a tool now and find out. Do not offer to look something up and do not ask whether you should: there is nobody to answer you.';
const searchFor = (q: string) =>
  `That does not answer the question. Search for "${q}" now, and keep going until you have the specifics. Do not offer to look something up and do not ask whether you should: there is nobody to answer you.`;
const ANSWER_FROM_KNOWLEDGE =
  'Web search is not available right now, so nobody can look this up. Answer now from what you know, and say plainly what you could not check.';

function record(stepId: string, answers: Record<string, DecideAnswer>): DecisionRecord {
  return { stepId, at: 0, modelId: 'm', source: 'native', answers };
}

type Calls = { freshness: number; verdict: string[] };

function gate(over: Partial<GateInput> = {}): { input: GateInput; calls: Calls } {
  const calls: Calls = { freshness: 0, verdict: [] };
  const input: GateInput = {
    question: 'Who won the match last night?',
    draft: 'Lyon won 2-1.',
    toolResults: [],
    earlierAnswers: [],
    researchAvailable: true,
    calculationRan: false,
    noResearchNudges: 0,
    freshness: async () => {
      calls.freshness++;
      return null;
    },
    verdict: async (text) => {
      calls.verdict.push(text);
      return null;
    },
    ...over,
  };
  if (over.freshness) {
    const f = over.freshness;
    input.freshness = () => {
      calls.freshness++;
      return f();
    };
  }
  if (over.verdict) {
    const v = over.verdict;
    input.verdict = (text) => {
      calls.verdict.push(text);
      return v(text);
    };
  }
  return { input, calls };
}

const fresh = (value: boolean, p: number, query?: DecideAnswer) => async () =>
  record('freshness', { needs_fresh: { kind: 'boolean', value, p }, ...(query ? { query } : {}) });
const verdict = (value: string, p: number, query?: DecideAnswer) => async () =>
  record('verdict', { verdict: { kind: 'choice', value, p }, ...(query ? { query } : {}) });

test('gate: a deferral is stopped by the free check, before any model check, and forces tools', async () => {
  const { input, calls } = gate({ draft: 'I can search for that if you would like.' });
  const out = await runGate(input);
  assert.deepEqual(out, { pass: false, reason: 'deferral', detail: 'I can search for', nudge: SEARCH_NOW, forceTools: true });
  assert.equal(calls.freshness, 0, 'freshness is not asked after a free catch');
  assert.equal(calls.verdict.length, 0, 'the verdict is not asked after a free catch');
});

test('gate: a refusal is named a refusal, not a deferral', async () => {
  const draft = 'I cannot answer this question based on the search results provided.';
  const out = await runGate(gate({ draft, toolResults: ['r'] }).input);
  assert.equal(out.pass, false, 'the refusal is stopped');
  assert.equal(!out.pass && out.reason, 'refusal', 'the reason is refusal');
  assert.equal(!out.pass && out.forceTools, true, 'tools are forced');
});

test('gate: without a research tool, a first deferral gets one nudge to answer from knowledge, without forcing tools', async () => {
  const draft = 'I can search for that if you would like.';
  const first = await runGate(gate({ draft, researchAvailable: false }).input);
  assert.deepEqual(first, {
    pass: false,
    reason: 'no_research',
    detail: 'I can search for',
    nudge: ANSWER_FROM_KNOWLEDGE,
    forceTools: false,
  });
  const second = await runGate(gate({ draft, researchAvailable: false, noResearchNudges: 1 }).input);
  assert.deepEqual(second, { pass: true }, 'the second deferral stands: nothing more can be done');
  const refusal = await runGate(
    gate({ draft: 'I cannot answer this question based on the search results provided.', researchAvailable: false }).input,
  );
  assert.deepEqual(refusal, { pass: true }, 'a refusal without research tools stands');
});

test('gate: without a research tool, a plain draft passes with no model check asked', async () => {
  const { input, calls } = gate({ researchAvailable: false, freshness: fresh(true, 0.99), verdict: verdict('research', 0.99) });
  assert.deepEqual(await runGate(input), { pass: true });
  assert.equal(calls.freshness + calls.verdict.length, 0, 'no model check without research tools');
});

test('gate: a question that needs fresh facts, with no tool run, is sent to search the model’s query', async () => {
  const { input, calls } = gate({
    freshness: fresh(true, 0.9, { kind: 'text', value: 'match result last night' }),
    verdict: verdict('answered', 0.9),
  });
  const out = await runGate(input);
  assert.deepEqual(out, {
    pass: false,
    reason: 'freshness',
    detail: 'p(needs fresh) = 0.9',
    query: 'match result last night',
    nudge: searchFor('match result last night'),
    forceTools: true,
  });
  assert.equal(calls.verdict.length, 0, 'the verdict is not asked once freshness decided');
});

test('gate: freshness without a usable query falls back to the question, cut to 120 characters', async () => {
  const question = `What is happening ${'x'.repeat(200)}`;
  for (const query of [undefined, { kind: 'text', value: '' } as const, { refused: true, reason: 'r' } as const]) {
    const out = await runGate(gate({ question, freshness: fresh(true, 0.7, query) }).input);
    assert.equal(!out.pass && out.query, question.slice(0, 120), `query ${JSON.stringify(query)} falls back to the question`);
    assert.equal(!out.pass && out.query?.length, 120, 'the question is cut to 120 characters');
  }
});

test('gate: freshness is asked only when no tool ran and no calculation answered', async () => {
  for (const over of [{ toolResults: ['a result'] }, { calculationRan: true }]) {
    const { input, calls } = gate({ ...over, freshness: fresh(true, 0.99) });
    assert.deepEqual(await runGate(input), { pass: true }, `${JSON.stringify(over)}: the draft passes`);
    assert.equal(calls.freshness, 0, `${JSON.stringify(over)}: freshness not asked`);
    assert.equal(calls.verdict.length, 1, `${JSON.stringify(over)}: the verdict is asked`);
  }
});

test('gate: a question that does not need fresh facts goes on to the verdict, with the verdict input built from the turn', async () => {
  const { input, calls } = gate({ freshness: fresh(false, 0.2), earlierAnswers: ['Paris.'] });
  assert.deepEqual(await runGate(input), { pass: true });
  assert.equal(calls.freshness, 1, 'freshness asked once');
  assert.deepEqual(calls.verdict, [
    'Question:\nWho won the match last night?\n\nAnswers already given earlier in this conversation:\n- Paris.\n\nTool results in this turn:\n(none, no tool was called)\n\nDraft answer:\nLyon won 2-1.',
  ]);
});

test('gate: a freshness answer that is refused, not boolean, or failing lets the verdict decide', async () => {
  const cases: Array<[string, () => Promise<DecisionRecord | null>]> = [
    ['refused', async () => record('freshness', { needs_fresh: { refused: true, reason: 'no' } })],
    ['wrong kind', async () => record('freshness', { needs_fresh: { kind: 'choice', value: 'true', p: 1 } })],
    ['missing', async () => record('freshness', {})],
    [
      'thrown',
      async () => {
        throw new Error('model down');
      },
    ],
  ];
  for (const [name, f] of cases) {
    const { input, calls } = gate({ freshness: f });
    assert.deepEqual(await runGate(input), { pass: true }, `${name}: the draft passes`);
    assert.equal(calls.verdict.length, 1, `${name}: the verdict was asked`);
  }
});

test('gate: verdict "research" stops the draft with the model’s query; "answered" lets it through', async () => {
  const out = await runGate(
    gate({ toolResults: ['score 2-1'], verdict: verdict('research', 0.8, { kind: 'text', value: '"Lyon” score' }) }).input,
  );
  assert.deepEqual(out, {
    pass: false,
    reason: 'verdict',
    detail: 'p(research) = 0.8',
    query: '"Lyon” score',
    nudge: searchFor('Lyon score'),
    forceTools: true,
  });
  const noQuery = await runGate(gate({ toolResults: ['r'], verdict: verdict('research', 0.6, { kind: 'text', value: '' }) }).input);
  assert.deepEqual(noQuery, {
    pass: false,
    reason: 'verdict',
    detail: 'p(research) = 0.6',
    query: undefined,
    nudge: SEARCH_NOW,
    forceTools: true,
  });
  const refusedQuery = await runGate(gate({ toolResults: ['r'], verdict: verdict('research', 0.6, { refused: true, reason: 'r' }) }).input);
  assert.equal(!refusedQuery.pass && refusedQuery.query, undefined, 'a refused query is no query');
  const missingQuery = await runGate(gate({ toolResults: ['r'], verdict: verdict('research', 0.6) }).input);
  assert.deepEqual(
    missingQuery,
    { pass: false, reason: 'verdict', detail: 'p(research) = 0.6', query: undefined, nudge: SEARCH_NOW, forceTools: true },
    'a record without its query field',
  );
  assert.deepEqual(await runGate(gate({ toolResults: ['r'], verdict: verdict('answered', 0.99) }).input), { pass: true });
});

test('gate: a verdict that is refused, of another kind, or failing lets the draft through (fails open)', async () => {
  const cases: Array<[string, () => Promise<DecisionRecord | null>]> = [
    ['refused', async () => record('verdict', { verdict: { refused: true, reason: 'no' } })],
    ['boolean', async () => record('verdict', { verdict: { kind: 'boolean', value: true, p: 1 } })],
    ['null', async () => null],
    [
      'thrown',
      async () => {
        throw new Error('model down');
      },
    ],
  ];
  for (const [name, v] of cases) {
    assert.deepEqual(await runGate(gate({ toolResults: ['r'], verdict: v }).input), { pass: true }, `${name}: passes`);
  }
});

test('gate steps: the two checks ask what the gate reads, in a few tokens', () => {
  assert.equal(freshnessStep.id, 'freshness');
  assert.equal(verdictStep.id, 'verdict');
  assert.deepEqual(verdictStep.definition.questions.verdict, {
    kind: 'choice',
    instructions: 'answered or research',
    options: ['answered', 'research'],
  });
  assert.equal(freshnessStep.definition.questions.needs_fresh.kind, 'boolean');
  assert.equal(freshnessStep.definition.maxTokens, 96);
  assert.equal(verdictStep.definition.maxTokens, 96);
  assert.ok(freshnessStep.definition.text && 'query' in freshnessStep.definition.text, 'freshness asks for a query');
  assert.ok(verdictStep.definition.text && 'query' in verdictStep.definition.text, 'the verdict asks for a query');
});

test('verdict input: long texts are cut (question and draft 2,000, earlier answers and results 600 each)', () => {
  const text = verdictInput({
    question: 'q'.repeat(2500),
    earlierAnswers: ['a'.repeat(700)],
    toolResults: ['r'.repeat(700), 'short'],
    draft: 'd'.repeat(2500),
  });
  assert.equal(
    text,
    `Question:\n${'q'.repeat(2000)}\n\nAnswers already given earlier in this conversation:\n- ${'a'.repeat(600)}\n\nTool results in this turn:\n${'r'.repeat(600)}\nshort\n\nDraft answer:\n${'d'.repeat(2000)}`,
  );
});
