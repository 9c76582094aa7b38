import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshEngineStore, seedExchange, sqliteOnly } from '@/lib/dev/testing/store';

/** Decision records as stored: by layer and scope, the newest kept up to a limit, a thread's with their row ids. */

const record = (stepId: string, at: number) => ({
  stepId,
  at,
  modelId: 'qwen',
  source: 'native' as const,
  answers: { verdict: { kind: 'choice', value: 'answered', p: 0.75 } } as never,
});

test('records read back whole, oldest first, within their layer and scope only', async () => {
  const s = await freshEngineStore();
  const { turn } = await seedExchange(s, { thread: 't' });
  await s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 't',
    records: [record('a', 1), record('b', 2)],
    maxRecords: 10,
    turnId: turn,
    threadId: 't',
  });
  await s.appendDecisions({
    layerId: 'l',
    scope: 'resource',
    scopeKey: 'r',
    records: [record('res', 3)],
    maxRecords: 10,
    turnId: null,
    threadId: 't',
  });
  await s.appendDecisions({
    layerId: 'other',
    scope: 'thread',
    scopeKey: 't',
    records: [record('o', 4)],
    maxRecords: 10,
    turnId: null,
    threadId: 't',
  });
  assert.deepEqual(await s.loadDecisions({ layerId: 'l', scope: 'thread', scopeKey: 't' }), [
    {
      stepId: 'a',
      at: 1,
      modelId: 'qwen',
      source: 'native',
      answers: { verdict: { kind: 'choice', value: 'answered', p: 0.75 } },
      turnId: turn,
    },
    {
      stepId: 'b',
      at: 2,
      modelId: 'qwen',
      source: 'native',
      answers: { verdict: { kind: 'choice', value: 'answered', p: 0.75 } },
      turnId: turn,
    },
  ]);
  assert.deepEqual(
    (await s.loadDecisions({ layerId: 'l', scope: 'resource', scopeKey: 'r' })).map((r) => [r.stepId, r.turnId]),
    [['res', null]],
  );
  assert.deepEqual(await s.loadDecisions({ layerId: 'l', scope: 'thread', scopeKey: 'other-thread' }), []);
  assert.deepEqual(
    (await s.decisionsOfThread({ threadId: 't', layerId: 'l' })).map((r) => r.stepId),
    ['a', 'b'],
  );
  const rows = await s.decisionRowsOfThread({ threadId: 't', layerId: 'l' });
  assert.ok(rows[0].id < rows[1].id, 'row ids in order');
  assert.equal(rows[0].stepId, 'a');
});

test('beyond maxRecords the oldest go, in that scope alone', async () => {
  const s = await freshEngineStore();
  await s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 't',
    records: [record('1', 1), record('2', 2)],
    maxRecords: 3,
    turnId: null,
    threadId: 't',
  });
  await s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 'u',
    records: [record('u1', 1)],
    maxRecords: 3,
    turnId: null,
    threadId: 'u',
  });
  await s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 't',
    records: [record('3', 3), record('4', 4)],
    maxRecords: 3,
    turnId: null,
    threadId: 't',
  });
  assert.deepEqual(
    (await s.loadDecisions({ layerId: 'l', scope: 'thread', scopeKey: 't' })).map((r) => r.stepId),
    ['2', '3', '4'],
  );
  assert.deepEqual(
    (await s.loadDecisions({ layerId: 'l', scope: 'thread', scopeKey: 'u' })).map((r) => r.stepId),
    ['u1'],
  );
  await s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 't',
    records: [record('5', 5)],
    maxRecords: 1,
    turnId: null,
    threadId: 't',
  });
  assert.deepEqual(
    (await s.loadDecisions({ layerId: 'l', scope: 'thread', scopeKey: 't' })).map((r) => r.stepId),
    ['5'],
  );
});

test(
  'a thread-scoped record names its thread by its scope key only; others keep the thread they came from',
  { skip: sqliteOnly },
  async () => {
    const s = await freshEngineStore();
    await s.appendDecisions({
      layerId: 'l',
      scope: 'thread',
      scopeKey: 't',
      records: [record('a', 1)],
      maxRecords: 5,
      turnId: null,
      threadId: 't',
    });
    await s.appendDecisions({
      layerId: 'l',
      scope: 'resource',
      scopeKey: 'r',
      records: [record('b', 1)],
      maxRecords: 5,
      turnId: null,
      threadId: 't',
    });
    const rows = s.db.$client.prepare('SELECT step_id, thread_id FROM decision_records ORDER BY id').all();
    assert.deepEqual(rows, [
      { step_id: 'a', thread_id: null },
      { step_id: 'b', thread_id: 't' },
    ]);
  },
);
