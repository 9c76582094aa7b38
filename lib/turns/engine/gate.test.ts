import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DecideAnswer, DecisionRecord } from '@/lib/contract/decisions';
import type { Judgement } from './classifier';
import { freshnessStep, runGate, verdictStep, type GateInput } from './gate';
import { verdictInput } from './prompts';

/**
 * The gate alone, with its two model checks scripted: each case states the outcome a person
 * would expect, with the nudge's words written out rather than taken from prompts.ts.
 */

const SEARCH_NOW =
  'That does not answer the question. Call a tool now and find out. Do not offer to look something up and do not ask whether you should: there is nobody to answer you. Answer in the language of the question.';
const searchFor = (q: string) =>
  `That does not answer the question. Search for "${q}" now, and keep going until you have the specifics. Do not offer to look something up and do not ask whether you should: there is nobody to answer you. Answer in the language of the question.`;
const ANSWER_FROM_KNOWLEDGE =
  'Web search is not available right now, so nobody can look this up. Answer now from what you know, and say plainly what you could not check. Answer in the language of the question.';

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

const judging = (outcome: Judgement['outcome'], p: number) => async () => ({ outcome, p });
const byVerdict = (p: number) => ({ pass: true, by: { judge: 'verdict', p } });
const VERDICT_FAILED = { pass: true, by: { judge: 'none', why: 'verdict_failed' } };

test('gate: a deferral the patterns and the classifier agree on is set aside before any model check, and forces tools', async () => {
  const { input, calls } = gate({ draft: 'I can search for that if you would like.', classify: judging('deferral', 0.97) });
  const out = await runGate(input);
  assert.deepEqual(out, { pass: false, reason: 'deferral', detail: 'I can search for', nudge: SEARCH_NOW, forceTools: true });
  assert.equal(calls.freshness, 0, 'freshness is not asked after a free catch');
  assert.equal(calls.verdict.length, 0, 'the verdict is not asked after a free catch');
});

test('gate: a draft flagged by a pattern alone (an answer that ends with an offer) goes to the verdict, which decides', async () => {
  const draft = 'The 18:40 from Pembroke gets in at 22:10. Shall I check return trains too?';
  for (const outcome of ['answer', 'unsure'] as const) {
    const { input, calls } = gate({ draft, classify: judging(outcome, 0.2), verdict: verdict('answered', 0.9) });
    assert.deepEqual(await runGate(input), byVerdict(0.9), `classifier ${outcome}: the verdict accepts it`);
    assert.equal(calls.verdict.length, 1, `classifier ${outcome}: the verdict was asked`);
    assert.equal(calls.freshness, 0, 'a flagged draft is not sent to search by freshness: the verdict decides');
  }
  const out = await runGate(gate({ draft, classify: judging('unsure', 0.5), verdict: verdict('research', 0.7) }).input);
  assert.equal(!out.pass && out.reason, 'verdict', 'and the verdict can set it aside');
});

test('gate: a draft flagged by the classifier alone goes to the verdict, which decides', async () => {
  const draft = 'Whatever was agreed at the summit this morning postdates everything I was trained on.';
  const { input, calls } = gate({
    draft,
    classify: judging('deferral', 0.91),
    verdict: verdict('research', 0.8, { kind: 'text', value: 'summit agreement' }),
  });
  const out = await runGate(input);
  assert.deepEqual(out, {
    pass: false,
    reason: 'verdict',
    detail: 'p(research) = 0.8',
    query: 'summit agreement',
    nudge: searchFor('summit agreement'),
    forceTools: true,
  });
  assert.equal(calls.verdict.length, 1, 'the verdict was asked');
  const accepted = await runGate(gate({ draft, classify: judging('deferral', 0.91), verdict: verdict('answered', 0.6) }).input);
  assert.deepEqual(accepted, byVerdict(0.6), 'a flag the verdict overrules lets the draft through');
});

test('gate: the classifier’s "clearly an answer" never skips the verdict', async () => {
  const draft = 'Honestly? I’d be guessing. The franc-to-euro rate moves every day and nothing I hold is fresh enough to quote.';
  const { input, calls } = gate({ draft, toolResults: ['r'], classify: judging('answer', 0.01), verdict: verdict('research', 0.85) });
  const out = await runGate(input);
  assert.equal(!out.pass && out.reason, 'verdict', 'the verdict sets it aside');
  assert.equal(calls.verdict.length, 1, 'the verdict was asked although the classifier was confident');
});

test('gate: a refusal both layers agree on is named a refusal, not a deferral; a refusal pattern alone goes to the verdict', async () => {
  const draft = 'I cannot answer this question based on the search results provided.';
  const out = await runGate(gate({ draft, toolResults: ['r'], classify: judging('deferral', 0.9) }).input);
  assert.equal(out.pass, false, 'the refusal is stopped');
  assert.equal(!out.pass && out.reason, 'refusal', 'the reason is refusal');
  assert.equal(!out.pass && out.forceTools, true, 'tools are forced');
  const { input, calls } = gate({ draft, toolResults: ['r'], classify: judging('unsure', 0.4), verdict: verdict('research', 0.7) });
  const alone = await runGate(input);
  assert.equal(!alone.pass && alone.reason, 'verdict', 'the verdict decides a refusal the classifier does not agree with');
  assert.equal(calls.verdict.length, 1);
});

test('gate: without a classifier, a pattern alone never sets a draft aside', async () => {
  const { input, calls } = gate({ draft: 'I can search for that if you would like.', verdict: verdict('research', 0.9) });
  const out = await runGate(input);
  assert.equal(!out.pass && out.reason, 'verdict');
  assert.equal(calls.verdict.length, 1);
});

test('gate: without a research tool, an agreed deferral gets one nudge to answer from knowledge, without forcing tools', async () => {
  const draft = 'I can search for that if you would like.';
  const classify = judging('deferral', 0.95);
  const first = await runGate(gate({ draft, classify, researchAvailable: false }).input);
  assert.deepEqual(first, {
    pass: false,
    reason: 'no_research',
    detail: 'I can search for',
    nudge: ANSWER_FROM_KNOWLEDGE,
    forceTools: false,
  });
  const { input, calls } = gate({ draft, classify, researchAvailable: false, noResearchNudges: 1, verdict: verdict('research', 0.9) });
  assert.deepEqual(await runGate(input), { pass: true, by: { judge: 'none', why: 'nudge_spent' } }, 'the second deferral stands');
  assert.equal(calls.verdict.length, 0, 'nothing left to judge: no verdict call');
  const refusal = await runGate(
    gate({ draft: 'I cannot answer this question based on the search results provided.', classify, researchAvailable: false }).input,
  );
  assert.deepEqual(refusal, { pass: true, by: { judge: 'none', why: 'nudge_spent' } }, 'a refusal without research tools stands');
});

test('gate: without a research tool, the verdict still judges a draft; "research" gets the one nudge to answer from knowledge', async () => {
  const { input, calls } = gate({ researchAvailable: false, freshness: fresh(true, 0.99), verdict: verdict('research', 0.8) });
  assert.deepEqual(await runGate(input), {
    pass: false,
    reason: 'no_research',
    detail: 'p(research) = 0.8',
    nudge: ANSWER_FROM_KNOWLEDGE,
    forceTools: false,
  });
  assert.equal(calls.freshness, 0, 'freshness is not asked: there is nothing to search with');
  assert.equal(calls.verdict.length, 1, 'the verdict judges');
  assert.deepEqual(await runGate(gate({ researchAvailable: false, verdict: verdict('answered', 0.9) }).input), byVerdict(0.9));
});

test('gate: a draft that carries this turn’s tool results is accepted by the rule, with no verdict; one that ignores them is judged', async () => {
  const toolResults = [
    'web_search: {"results":[{"title":"Pembroke Dock to Rosslare ferry","url":"https://example.org/ferry","snippet":"Sailings at 02:45 and 14:45, crossing 4 hours"}]}',
  ];
  const question = 'When does the ferry leave Pembroke?';
  const { input, calls } = gate({
    question,
    toolResults,
    draft: 'The next sailing to Rosslare leaves at 14:45 (there is also one at 02:45).',
    verdict: verdict('research', 0.9),
  });
  assert.deepEqual(await runGate(input), { pass: true, by: { judge: 'results', matched: ['14', '45', '02', 'rosslare'] } });
  assert.equal(calls.verdict.length + calls.freshness, 0, 'no model check');
  const ignoring = gate({
    question,
    toolResults,
    draft: 'Ferries usually sail a few times a day; the operator’s site has the times.',
    verdict: verdict('research', 0.9),
  });
  const out = await runGate(ignoring.input);
  assert.equal(!out.pass && out.reason, 'verdict', 'a draft that ignores the results is judged, and set aside');
  assert.equal(ignoring.calls.verdict.length, 1);
  const flagged = gate({
    question,
    toolResults,
    draft: 'Would you like me to check the fares too? The Rosslare sailings are at 14:45 and 02:45.',
    classify: judging('unsure', 0.5),
    verdict: verdict('answered', 0.7),
  });
  assert.deepEqual(await runGate(flagged.input), byVerdict(0.7), 'a flagged draft is judged even when it carries results');
  assert.equal(flagged.calls.verdict.length, 1);
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
    assert.deepEqual(await runGate(input), VERDICT_FAILED, `${JSON.stringify(over)}: the draft passes`);
    assert.equal(calls.freshness, 0, `${JSON.stringify(over)}: freshness not asked`);
    assert.equal(calls.verdict.length, 1, `${JSON.stringify(over)}: the verdict is asked`);
  }
});

test('gate: a question that does not need fresh facts goes on to the verdict, with the verdict input built from the turn', async () => {
  const { input, calls } = gate({ freshness: fresh(false, 0.2), earlierAnswers: ['Paris.'] });
  assert.deepEqual(await runGate(input), VERDICT_FAILED);
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
    assert.deepEqual(await runGate(input), VERDICT_FAILED, `${name}: the draft passes`);
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
  assert.deepEqual(await runGate(gate({ toolResults: ['r'], verdict: verdict('answered', 0.99) }).input), byVerdict(0.99));
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
    assert.deepEqual(await runGate(gate({ toolResults: ['r'], verdict: v }).input), VERDICT_FAILED, `${name}: passes`);
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

test('gate, "Ask the model about every answer" off: the classifier is trusted both ways, as before', async () => {
  const off = { judgeEveryAnswer: false };
  const answer = gate({ ...off, toolResults: ['r'], classify: judging('answer', 0.02), verdict: verdict('research', 0.9) });
  assert.deepEqual(await runGate(answer.input), { pass: true, by: { judge: 'classifier', p: 0.02 } }, 'clearly an answer: accepted');
  assert.equal(answer.calls.verdict.length, 0, 'no verdict call');
  const patternOnly = gate({ ...off, draft: 'I can search for that if you would like.', classify: judging('unsure', 0.5) });
  const out = await runGate(patternOnly.input);
  assert.equal(!out.pass && out.reason, 'deferral', 'a pattern the classifier is unsure of sets the draft aside at once');
  assert.equal(patternOnly.calls.verdict.length, 0);
  const classifierOnly = await runGate(
    gate({ ...off, draft: 'Nothing I hold is fresh enough to quote.', classify: judging('deferral', 0.93) }).input,
  );
  assert.equal(!classifierOnly.pass && classifierOnly.detail, 'the classifier: p(deferral) = 0.93', 'the classifier alone sets it aside');
  const noResearch = gate({ ...off, researchAvailable: false, verdict: verdict('research', 0.9) });
  assert.deepEqual(await runGate(noResearch.input), { pass: true, by: { judge: 'none', why: 'no_research' } });
  assert.equal(noResearch.calls.verdict.length, 0, 'no model check without research tools');
  const unsure = gate({ ...off, toolResults: ['r'], classify: judging('unsure', 0.3), verdict: verdict('answered', 0.8) });
  assert.deepEqual(await runGate(unsure.input), byVerdict(0.8), 'unsure: the verdict decides');
});
