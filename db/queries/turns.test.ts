import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshEngineStore, seedExchange } from '@/lib/dev/testing/store';
import { decodeStats, encodeStats } from './turns';

/** Turns as stored: their status and figures, their event log (as rows, then compacted), their steps and facts. */

test('a turn’s figures are stored as an array in a fixed order and read back by name', () => {
  const stats = {
    rounds: 2,
    modelCalls: 3,
    toolCalls: 1,
    gateNudges: 1,
    promptTokens: 900,
    completionTokens: 80,
    fuelUsed: 305,
    ms: 4000,
    modelMs: 3500,
    compiled: true,
    firstTokenMs: 700,
    tokensPerSecond: 41.5,
    firstThinkingMs: 120,
    thinkingTokens: 300,
    thinkingMs: 560,
  };
  assert.deepEqual(encodeStats(stats), [2, 3, 1, 1, 900, 80, 305, 4000, 3500, 1, 700, 41.5, 120, 300, 560]);
  assert.deepEqual(decodeStats(encodeStats(stats)), stats);
  const plain = {
    rounds: 1,
    modelCalls: 1,
    toolCalls: 0,
    gateNudges: 0,
    promptTokens: 10,
    completionTokens: 5,
    fuelUsed: 100,
    ms: 20,
    modelMs: 10,
  };
  assert.deepEqual(encodeStats({ ...plain, compiled: false }), [1, 1, 0, 0, 10, 5, 100, 20, 10], 'trailing zeros are left out');
  assert.deepEqual(decodeStats(encodeStats(plain)), plain, 'not compiled, no first word, no speed: absent, not zero');
  assert.deepEqual(
    decodeStats([1, 2]),
    { rounds: 1, modelCalls: 2, toolCalls: 0, gateNudges: 0, promptTokens: 0, completionTokens: 0, fuelUsed: 0, ms: 0, modelMs: 0 },
    'a shorter array: the rest are 0',
  );
  assert.deepEqual(decodeStats({ rounds: 4 }), { rounds: 4 }, 'figures stored by name (older rows) are read as they are');
  assert.equal(decodeStats(null), null);
  assert.equal(decodeStats(undefined), null);
});

test('a new turn is queued; its status, figures and end are set as it goes', async () => {
  const s = await freshEngineStore();
  const { turn, user, assistant } = await seedExchange(s, { thread: 't' }, { now: 50 });
  const row = await s.getTurn({ id: turn });
  assert.deepEqual(
    [row?.status, row?.threadId, row?.userMessageId, row?.assistantMessageId, row?.createdAt, row?.finishedAt, row?.stats],
    ['queued', 't', user, assistant, 50, null, null],
  );
  await s.setTurnStatus({ id: turn, status: 'running' });
  assert.deepEqual(
    [(await s.getTurn({ id: turn }))?.status, (await s.getTurn({ id: turn }))?.stats, (await s.getTurn({ id: turn }))?.finishedAt],
    ['running', null, null],
  );
  await s.setTurnStatus({ id: turn, status: 'done', stats: { rounds: 1 }, now: 90 });
  const done = await s.getTurn({ id: turn });
  assert.equal(done?.status, 'done');
  assert.equal(done?.finishedAt, 90);
  assert.deepEqual(done?.stats, [1], 'trailing zeros are left out');
  await s.setTurnStatus({ id: turn, status: 'error' });
  const changed = await s.getTurn({ id: turn });
  assert.deepEqual(
    [changed?.status, changed?.finishedAt, changed?.stats],
    ['error', 90, [1]],
    'a status alone keeps the figures and the end',
  );
  assert.equal(await s.getTurn({ id: 'missing' }), undefined);
});

test('the figures of a thread’s turns, by turn, for those that have any', async () => {
  const s = await freshEngineStore();
  const a = await seedExchange(s, { thread: 't', user: 'u1', assistant: 'a1', turn: 'done' });
  await seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 'running' });
  await seedExchange(s, { thread: 'o' });
  await s.setTurnStatus({ id: a.turn, status: 'done', stats: { rounds: 2, ms: 30 }, now: 5 });
  await s.setTurnStatus({ id: 'o-t', status: 'done', stats: { rounds: 9 }, now: 5 });
  const stats = await s.turnStatsOfThread({ threadId: 't' });
  assert.deepEqual([...stats.keys()], ['done']);
  assert.equal(stats.get('done')?.rounds, 2);
  assert.equal(stats.get('done')?.ms, 30);
});

test('the active turn of a thread is its newest queued or running one; unfinished turns are listed oldest first', async () => {
  const s = await freshEngineStore();
  await seedExchange(s, { thread: 't', user: 'u1', assistant: 'a1', turn: 'first' }, { now: 1 });
  await seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 'second' }, { now: 2 });
  await seedExchange(s, { thread: 'o', turn: 'other' }, { now: 0 });
  await seedExchange(s, { thread: 'd', turn: 'finished' }, { now: 0 });
  await s.setTurnStatus({ id: 'first', status: 'running' });
  await s.setTurnStatus({ id: 'finished', status: 'done' });
  assert.equal((await s.activeTurnOf({ threadId: 't' }))?.id, 'second');
  assert.equal(await s.activeTurnOf({ threadId: 'd' }), undefined);
  assert.deepEqual(
    (await s.unfinishedTurns()).map((t) => t.id),
    ['other', 'first', 'second'],
  );
  await s.setTurnStatus({ id: 'second', status: 'cancelled' });
  assert.equal((await s.activeTurnOf({ threadId: 't' }))?.id, 'first');
});

test('events are read after a sequence number, in order, first as rows and then from the compacted log', async () => {
  const s = await freshEngineStore();
  const { turn } = await seedExchange(s, { thread: 't' });
  const other = await seedExchange(s, { thread: 'o' });
  assert.equal(await s.lastEventSeq({ turnId: turn }), 0, 'no events yet');
  await s.appendEvent({ turnId: turn, seq: 2, type: 'delta', data: { type: 'delta', text: 'b' }, now: 1 });
  await s.appendEvent({ turnId: turn, seq: 1, type: 'delta', data: { type: 'delta', text: 'a' }, now: 1 });
  await s.appendEvent({ turnId: turn, seq: 3, type: 'done', data: { type: 'done' }, now: 1 });
  await s.appendEvent({ turnId: other.turn, seq: 9, type: 'done', data: { type: 'done' }, now: 1 });
  assert.deepEqual(await s.eventsAfter({ turnId: turn, after: 0 }), [
    { seq: 1, type: 'delta', data: { type: 'delta', text: 'a' } },
    { seq: 2, type: 'delta', data: { type: 'delta', text: 'b' } },
    { seq: 3, type: 'done', data: { type: 'done' } },
  ]);
  assert.deepEqual(
    (await s.eventsAfter({ turnId: turn, after: 1 })).map((e) => e.seq),
    [2, 3],
  );
  assert.equal(await s.lastEventSeq({ turnId: turn }), 3);

  await s.storeCompactLog({
    turnId: turn,
    events: [
      { seq: 1, type: 'turn', data: 'turn' },
      { seq: 4, type: 'decision', data: { decision: 7 } },
      { seq: 6, type: 'status', data: { type: 'status', stage: 'writing' } },
    ],
  });
  assert.equal((await s.getTurn({ id: turn }))?.events, '[[1,"turn"],[4,{"decision":7}],[6,{"type":"status","stage":"writing"}]]');
  assert.deepEqual(await s.eventsAfter({ turnId: turn, after: 1 }), [
    { seq: 4, type: 'decision', data: { decision: 7 } },
    { seq: 6, type: 'status', data: { type: 'status', stage: 'writing' } },
  ]);
  assert.deepEqual((await s.eventsAfter({ turnId: turn, after: 0 }))[0], { seq: 1, type: 'turn', data: 'turn' });
  assert.equal(await s.lastEventSeq({ turnId: turn }), 6);
  assert.equal(await s.lastEventSeq({ turnId: other.turn }), 9, 'another turn’s rows stay');
  await s.storeCompactLog({ turnId: other.turn, events: [] });
  assert.equal(await s.lastEventSeq({ turnId: other.turn }), 0, 'an empty log');
});

test('the turns that set a draft aside or ran a calculation, with the events that rebuild them', async () => {
  const s = await freshEngineStore();
  const compacted = await seedExchange(s, { thread: 't', user: 'u1', assistant: 'a1', turn: 'compacted' });
  const running = await seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 'running' });
  const plain = await seedExchange(s, { thread: 't', user: 'u3', assistant: 'a3', turn: 'plain' });
  const calc = await seedExchange(s, { thread: 't', user: 'u4', assistant: 'a4', turn: 'calc' });
  await seedExchange(s, { thread: 'o', turn: 'elsewhere' });
  await s.storeCompactLog({
    turnId: compacted.turn,
    events: [
      { seq: 1, type: 'turn', data: 'turn' },
      { seq: 2, type: 'delta', data: { type: 'delta', text: 'I can search' } },
      { seq: 3, type: 'draft_rejected', data: { type: 'draft_rejected', reason: 'deferral' } },
      { seq: 4, type: 'tool_call', data: { tool_call: 'c1' } },
      { seq: 5, type: 'draft', data: { type: 'draft', text: 'I can search' } },
      { seq: 6, type: 'status', data: { type: 'status', stage: 'resumed' } },
      { seq: 7, type: 'draft', data: 'answer-draft' },
    ],
  });
  await s.storeCompactLog({ turnId: plain.turn, events: [{ seq: 1, type: 'delta', data: { type: 'delta', text: 'Hi' } }] });
  await s.storeCompactLog({
    turnId: calc.turn,
    events: [{ seq: 2, type: 'calculation', data: { type: 'calculation', expression: '1+1', result: '2', exact: true } }],
  });
  const row = (turnId: string, seq: number, data: Record<string, unknown>) =>
    s.appendEvent({ turnId, seq, type: String(data.type), data, now: 1 });
  await row(running.turn, 2, { type: 'delta', text: 'Let me' });
  await row(running.turn, 1, { type: 'status', stage: 'thinking' });
  await row(running.turn, 3, { type: 'draft_rejected', reason: 'tool_call' });
  await row(running.turn, 4, { type: 'tool_call', id: 'x' });
  await row('elsewhere', 1, { type: 'draft_rejected', reason: 'deferral' });
  const notable = await s.eventsOfNotableTurns({ threadId: 't' });
  assert.deepEqual([...notable.keys()].sort(), ['calc', 'compacted', 'running']);
  assert.deepEqual(
    notable.get('compacted')?.map((e) => [e.seq, e.type]),
    [
      [2, 'delta'],
      [3, 'draft_rejected'],
      [5, 'draft'],
      [6, 'status'],
    ],
    'references (the tool call, the answer kept in its message) are left out; a resumed mark is kept',
  );
  assert.deepEqual(
    notable.get('running')?.map((e) => [e.seq, e.type]),
    [
      [1, 'status'],
      [2, 'delta'],
      [3, 'draft_rejected'],
    ],
  );
  assert.deepEqual(notable.get('running')?.[1].data, { type: 'delta', text: 'Let me' });
  assert.deepEqual(
    notable.get('calc')?.map((e) => e.type),
    ['calculation'],
  );
  assert.equal((await s.eventsOfNotableTurns({ threadId: 'nothing' })).size, 0);
});

test('a turn’s steps: stored in order, a step taken again replaces the one at its place, and they go when the turn ends', async () => {
  const s = await freshEngineStore();
  const { turn } = await seedExchange(s, { thread: 't' });
  await s.appendStep({ turnId: turn, seq: 2, kind: 'tool', data: { ok: true }, now: 1 });
  await s.appendStep({ turnId: turn, seq: 1, kind: 'model', data: { content: 'a' }, now: 1 });
  await s.appendStep({ turnId: turn, seq: 2, kind: 'model', data: { content: 'other path' }, now: 2 });
  assert.deepEqual(await s.stepsOf({ turnId: turn }), [
    { seq: 1, kind: 'model', data: { content: 'a' } },
    { seq: 2, kind: 'model', data: { content: 'other path' } },
  ]);
  await s.deleteTurnSteps({ turnId: turn });
  assert.deepEqual(await s.stepsOf({ turnId: turn }), []);
});

test('a turn’s facts for replay: ids, answer, figures, its tool calls by the model’s id, its own thread-scoped decisions', async () => {
  const s = await freshEngineStore();
  const { turn, user, assistant } = await seedExchange(s, { thread: 't' }, { answer: 'Forty-two.' });
  const other = await seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 't2' });
  await s.setTurnStatus({ id: turn, status: 'done', stats: { rounds: 3 }, now: 2 });
  await s.insertToolCall({
    id: `${turn}:call_0_0`,
    turnId: turn,
    threadId: 't',
    name: 'web_search',
    arguments: '{"query":"x"}',
    ok: true,
    result: '{"n":1}',
    repeat: true,
    ms: 4,
    createdAt: 1,
  });
  await s.insertToolCall({
    id: `${other.turn}:call_0_0`,
    turnId: other.turn,
    threadId: 't',
    name: 'fetch_url',
    arguments: '{}',
    ok: false,
    result: '{}',
    ms: 4,
    createdAt: 1,
  });
  const record = (stepId: string, turnId: string, scope: 'thread' | 'resource' = 'thread', layerId = 'decisions') =>
    s.appendDecisions({
      layerId,
      scope,
      scopeKey: scope === 'thread' ? 't' : 'r',
      records: [
        { stepId, at: 5, modelId: 'qwen', source: 'native', answers: { verdict: { kind: 'choice', value: 'answered', p: 0.9 } } as never },
      ],
      maxRecords: 10,
      turnId,
      threadId: 't',
    });
  await record('verdict', turn);
  await record('freshness', other.turn);
  await record('resource-wide', turn, 'resource');
  await record('other-layer', turn, 'thread', 'elsewhere');
  const facts = await s.turnFacts({ turnId: turn, layerId: 'decisions' });
  assert.ok(facts, 'the turn is there');
  assert.deepEqual(
    [facts.turnId, facts.threadId, facts.userMessageId, facts.assistantMessageId, facts.answer],
    [turn, 't', user, assistant, 'Forty-two.'],
  );
  assert.equal((facts.stats as { rounds: number }).rounds, 3);
  assert.deepEqual(
    [...facts.toolCalls.entries()],
    [['call_0_0', { name: 'web_search', arguments: '{"query":"x"}', ok: true, result: { n: 1 }, repeat: true }]],
  );
  assert.deepEqual(
    [...facts.decisions.values()],
    [{ stepId: 'verdict', at: 5, modelId: 'qwen', source: 'native', answers: { verdict: { kind: 'choice', value: 'answered', p: 0.9 } } }],
  );
  assert.equal(await s.turnFacts({ turnId: 'missing', layerId: 'decisions' }), undefined);
});

test('a turn without an answer message (an imported library may hold one): its facts name none and hold no words', async () => {
  const s = await freshEngineStore();
  const ex = await seedExchange(s, { thread: 't' });
  await s.importTurn({
    id: 'bare',
    thread_id: 't',
    user_message_id: ex.user,
    assistant_message_id: null,
    status: 'error',
    stats: null,
    events: null,
    created_at: 1,
    finished_at: 2,
  });
  const facts = await s.turnFacts({ turnId: 'bare', layerId: 'decisions' });
  assert.deepEqual([facts?.assistantMessageId, facts?.answer], ['', '']);
});

test('a running turn that only calculated, or wrote a draft, is notable with those events', async () => {
  const s = await freshEngineStore();
  const ex = await seedExchange(s, { thread: 't' });
  await s.appendEvent({ turnId: ex.turn, seq: 1, type: 'draft', data: { type: 'draft', text: 'So' }, now: 1 });
  await s.appendEvent({
    turnId: ex.turn,
    seq: 2,
    type: 'calculation',
    data: { type: 'calculation', expression: '2*3', result: '6', exact: true },
    now: 1,
  });
  await s.appendEvent({ turnId: ex.turn, seq: 3, type: 'tool_call', data: { type: 'tool_call' }, now: 1 });
  assert.deepEqual(
    (await s.eventsOfNotableTurns({ threadId: 't' })).get(ex.turn)?.map((e) => [e.seq, e.type]),
    [
      [1, 'draft'],
      [2, 'calculation'],
    ],
  );
});
