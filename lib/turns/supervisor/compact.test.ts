import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyEvent, newTurnState, type LiveTurnState } from '@/lib/contract/turn-state';
import type { DecisionRecord } from '@/lib/contract/decisions';
import type { TurnEvent, TurnStats } from '@/lib/contract/events';
import { compactEvents, expandEvent, fromStored, toStored, type StoredCompact, type StoredTurnEvent, type TurnFacts } from './compact';

const stats: TurnStats = {
  rounds: 2,
  modelCalls: 3,
  toolCalls: 1,
  gateNudges: 1,
  promptTokens: 100,
  completionTokens: 50,
  fuelUsed: 305,
  ms: 40,
  modelMs: 30,
};
const verdict: DecisionRecord = {
  stepId: 'verdict',
  at: 5,
  modelId: 'm',
  source: 'native',
  answers: { verdict: { kind: 'choice', value: 'answered', p: 0.9 } },
};
const words = (text: string): TurnEvent[] => text.split(/(?= )/).map((t) => ({ type: 'delta', text: t }));
const thoughts = (text: string): TurnEvent[] => text.split(/(?= )/).map((t) => ({ type: 'thinking', text: t }));

/** Turns as the engine streams them: set-aside drafts, thinking aloud, tools, decisions, endings good and bad. */
const scenarios: Record<string, { events: TurnEvent[]; answer: string }> = {
  'a research turn: deferral set aside, a search, a checked answer': {
    answer: 'Bitcoin costs 42 euros today.',
    events: [
      { type: 'turn', turnId: 't', threadId: 'th', userMessageId: 'u', assistantMessageId: 'a' },
      { type: 'status', stage: 'thinking' },
      // A router loads the model first (a passing stage, as the others).
      { type: 'status', stage: 'loading', model: 'qwen3-30b-a3b', since: 1_000 },
      { type: 'status', stage: 'thinking' },
      ...words("I can look that up if you'd like."),
      { type: 'status', stage: 'checking' },
      { type: 'draft_rejected', reason: 'deferral', detail: 'can look that up' },
      { type: 'status', stage: 'writing' },
      ...words('Let me search.'),
      { type: 'draft_rejected', reason: 'tool_call' },
      { type: 'tool_call', id: 'c1', name: 'web_search', arguments: '{"query":"btc"}' },
      { type: 'tool_result', id: 'c1', name: 'web_search', ok: true, result: { results: [{ title: 'BTC' }] }, ms: 12 },
      ...words('Bitcoin costs 42 euros today.'),
      { type: 'status', stage: 'checking' },
      { type: 'decision', record: verdict },
      { type: 'message', id: 'a', content: 'Bitcoin costs 42 euros today.' },
      { type: 'done', turnId: 't', stats },
    ],
  },
  'a failed tool, a calculation and a plain answer': {
    answer: 'The answer is 1237.',
    events: [
      { type: 'turn', turnId: 't', threadId: 'th', userMessageId: 'u', assistantMessageId: 'a' },
      { type: 'calculation', expression: '23 * 47 + 156', result: '1237', exact: true },
      { type: 'tool_call', id: 'c1', name: 'get_weather', arguments: '{}' },
      { type: 'tool_result', id: 'c1', name: 'get_weather', ok: false, error: 'there is no tool called "get_weather"', ms: 0 },
      ...words('The answer is 1237.'),
      { type: 'message', id: 'a', content: 'The answer is 1237.' },
      { type: 'done', turnId: 't', stats },
    ],
  },
  'stopped half-way: the partial answer stands': {
    answer: 'Sourdough needs',
    events: [
      { type: 'turn', turnId: 't', threadId: 'th', userMessageId: 'u', assistantMessageId: 'a' },
      ...words('Sourdough needs'),
      { type: 'error', code: 'cancelled', message: 'Stopped.' },
    ],
  },
  'a thinking model: thinking, a tool call, thinking again, then the answer': {
    answer: 'It is 18 degrees in Lyon.',
    events: [
      { type: 'turn', turnId: 't', threadId: 'th', userMessageId: 'u', assistantMessageId: 'a' },
      { type: 'status', stage: 'thinking' },
      ...thoughts('The user wants the weather; I should search.'),
      { type: 'thought', ms: 800, tokens: 9 },
      { type: 'tool_call', id: 'c1', name: 'web_search', arguments: '{"query":"lyon weather"}' },
      { type: 'tool_result', id: 'c1', name: 'web_search', ok: true, result: { results: [{ title: '18°C' }] }, ms: 12 },
      ...thoughts('The result says 18.'),
      ...words('It is 18'),
      { type: 'thought', ms: 300, tokens: 4 },
      ...words(' degrees in Lyon.'),
      { type: 'message', id: 'a', content: 'It is 18 degrees in Lyon.' },
      { type: 'done', turnId: 't', stats },
    ],
  },
  'resumed after a restart: the draft starts again': {
    answer: 'Second try.',
    events: [
      { type: 'turn', turnId: 't', threadId: 'th', userMessageId: 'u', assistantMessageId: 'a' },
      ...words('First try that was cut'),
      { type: 'status', stage: 'resumed' },
      ...words('Second try.'),
      { type: 'message', id: 'a', content: 'Second try.' },
      { type: 'done', turnId: 't', stats },
    ],
  },
};

function numbered(events: TurnEvent[]): StoredTurnEvent[] {
  return events.map((data, i) => ({ seq: i + 1, data }));
}

function factsOf(events: TurnEvent[], answer: string): TurnFacts {
  const calls = new Map<string, { name: string; arguments: string; ok: boolean; result: unknown; repeat: boolean }>();
  for (const e of events)
    if (e.type === 'tool_call') calls.set(e.id, { name: e.name, arguments: e.arguments, ok: false, result: null, repeat: false });
  for (const e of events)
    if (e.type === 'tool_result')
      Object.assign(calls.get(e.id)!, { ok: e.ok, result: e.ok ? e.result : { error: e.error }, repeat: Boolean(e.repeat) });
  return {
    turnId: 't',
    threadId: 'th',
    userMessageId: 'u',
    assistantMessageId: 'a',
    answer,
    stats,
    toolCall: (id) => calls.get(id),
    decision: (id) => (id === 7 ? verdict : undefined),
  };
}

/** What a person sees of a turn (the stage is a passing hint, not part of it). */
const seen = ({ stage: _stage, queuePosition: _q, loading: _loading, lastSeq: _l, ...rest }: LiveTurnState) => rest;
const reduce = (state: LiveTurnState, events: (TurnEvent & { seq: number })[]) => events.reduce(applyEvent, state);

describe('compacting a finished turn', () => {
  for (const [name, { events, answer }] of Object.entries(scenarios)) {
    test(`${name}: replay after any N gives the turn the client would have had`, () => {
      const stored = numbered(events);
      const facts = factsOf(events, answer);
      const compacted = compactEvents(stored, (e) => (e.record.stepId === 'verdict' ? 7 : null));
      const replay = compacted
        .map((c) => ({ seq: c.seq, e: expandEvent(c, facts) }))
        .filter((x) => x.e !== null)
        .map((x) => ({ ...x.e!, seq: x.seq }));
      const whole = seen(
        reduce(
          newTurnState('t'),
          stored.map((s) => ({ ...s.data, seq: s.seq })),
        ),
      );
      for (let n = 0; n <= stored.length; n++) {
        const before = reduce(
          newTurnState('t'),
          stored.filter((s) => s.seq <= n).map((s) => ({ ...s.data, seq: s.seq })),
        );
        const after = reduce(
          before,
          replay.filter((e) => e.seq > n),
        );
        assert.deepEqual(seen(after), whole, `after=${n}`);
      }
      assert.ok(
        compacted.every((c) => 'ref' in c || c.data.type !== 'delta'),
        'no streamed word is kept as such',
      );
      assert.ok(
        compacted.every((c) => 'ref' in c || c.data.type !== 'thinking' || c.data.whole),
        'no piece of thinking is kept as such',
      );
    });
  }

  test('streamed words become one draft per run; what tables hold becomes a reference', () => {
    const { events } = scenarios['a research turn: deferral set aside, a search, a checked answer'];
    const compacted = compactEvents(numbered(events), () => 7);
    const kinds = compacted.map((c) => ('ref' in c ? `ref:${c.ref}` : c.data.type));
    assert.deepEqual(kinds, [
      'ref:turn',
      'draft',
      'draft_rejected',
      'draft',
      'draft_rejected',
      'ref:tool_call',
      'ref:tool_result',
      'ref:answer-draft',
      'ref:decision',
      'ref:message',
      'ref:done',
    ]);
    const setAside = compacted[1];
    assert.ok(!('ref' in setAside) && setAside.data.type === 'draft' && setAside.data.text === "I can look that up if you'd like.");
    assert.ok(!JSON.stringify(compacted).includes('42 euros'), 'the answer is stored once, in its message');
  });

  test('the stored form of every compacted event reads back as itself', () => {
    for (const { events } of Object.values(scenarios)) {
      const compacted = compactEvents(numbered(events), () => 7);
      const stored = compacted.map(toStored);
      assert.deepEqual(
        JSON.parse(JSON.stringify(stored)).map((s: { seq: number; data: StoredCompact }) => fromStored(s)),
        compacted,
      );
      assert.ok(stored.every((s) => typeof s.type === 'string' && s.type.length > 0));
    }
  });

  test('a decision whose record was trimmed away is left out of the replay', () => {
    const facts = factsOf([], '');
    assert.equal(expandEvent({ seq: 3, ref: 'decision', decisionId: 99 }, facts), null);
  });
});

describe('what is kept whole and what becomes a reference', () => {
  const kinds = (events: TurnEvent[]) => compactEvents(numbered(events), () => 7).map((c) => ('ref' in c ? `ref:${c.ref}` : c.data.type));
  const turn: TurnEvent = { type: 'turn', turnId: 't', threadId: 'th', userMessageId: 'u', assistantMessageId: 'a' };

  test('a draft set aside, or started again on resume, is not the answer: it stays as written', () => {
    assert.deepEqual(
      kinds([
        turn,
        ...words('I can check that.'),
        { type: 'draft_rejected', reason: 'deferral' },
        { type: 'error', code: 'budget_exhausted', message: 'spent' },
      ]),
      ['ref:turn', 'draft', 'draft_rejected', 'error'],
    );
    assert.deepEqual(
      kinds([turn, ...words('Cut short'), { type: 'status', stage: 'resumed' }, { type: 'error', code: 'cancelled', message: 'Stopped.' }]),
      ['ref:turn', 'draft', 'status', 'error'],
    );
    assert.deepEqual(
      kinds([turn, ...words('Half an answer'), { type: 'error', code: 'model_unreachable', message: 'down' }]),
      ['ref:turn', 'ref:answer-draft', 'error'],
      'the draft standing when a turn fails is its partial answer',
    );
  });

  test('only the resumed stage of the statuses is kept', () => {
    assert.deepEqual(
      kinds([turn, { type: 'status', stage: 'thinking' }, { type: 'status', stage: 'resumed' }, { type: 'status', stage: 'checking' }]),
      ['ref:turn', 'status'],
    );
  });

  test('a call is a reference only when its own result was stored: one stopped before it returned stays whole', () => {
    const events: TurnEvent[] = [
      turn,
      { type: 'tool_call', id: 'c1', name: 'now', arguments: '{}' },
      { type: 'tool_call', id: 'c2', name: 'web_search', arguments: '{"query":"q"}' },
      { type: 'tool_result', id: 'c1', name: 'now', ok: true, result: {}, ms: 1 },
      { type: 'error', code: 'cancelled', message: 'Stopped.' },
    ];
    assert.deepEqual(kinds(events), ['ref:turn', 'ref:tool_call', 'tool_call', 'ref:tool_result', 'error']);
  });

  test('stored: an answer draft is a draft row; a repeat and a failure with no words expand as such', () => {
    assert.deepEqual(toStored({ seq: 4, ref: 'answer-draft' }), { seq: 4, type: 'draft', data: 'answer-draft' });
    const facts: TurnFacts = {
      ...factsOf([], ''),
      toolCall: (id) =>
        id === 'r'
          ? { name: 'now', arguments: '{}', ok: true, result: { local: 'x' }, repeat: true }
          : { name: 'now', arguments: '{}', ok: false, result: null, repeat: false },
    };
    assert.deepEqual(expandEvent({ seq: 1, ref: 'tool_result', id: 'r', ms: 3 }, facts), {
      type: 'tool_result',
      id: 'r',
      name: 'now',
      ok: true,
      ms: 3,
      repeat: true,
      result: { local: 'x' },
    });
    assert.deepEqual(expandEvent({ seq: 1, ref: 'tool_result', id: 'f', ms: 3 }, facts), {
      type: 'tool_result',
      id: 'f',
      name: 'now',
      ok: false,
      ms: 3,
      error: 'failed',
    });
  });
});
