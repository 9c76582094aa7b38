import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LayerCtx } from '@/lib/turns/context/layers';
import { decisionsHistoryLayer, type DecisionStorage } from './history';
import type { DecisionRecord } from '@/lib/contract/decisions';

/** The decisions-history layer's hooks called one by one, with the state the runtime would hand them. */

const ctx: LayerCtx = { executionId: 'turn-9', threadId: 'thread-4', resourceId: 'owner' };
const rec = (stepId: string, at: number): DecisionRecord => ({
  stepId,
  at,
  modelId: 'm',
  source: 'native',
  answers: { ok: { kind: 'boolean', value: true, p: 0.9 } },
});

function storage() {
  const loads: unknown[] = [];
  const appends: unknown[] = [];
  const s: DecisionStorage = {
    load: (args) => {
      loads.push(args);
      return [rec('a', 1), rec('b', 2), rec('c', 3)];
    },
    append: ({ scopeKey, maxRecords, record }) => {
      appends.push({ scopeKey, maxRecords, stepId: record.stepId });
    },
  };
  return { s, loads, appends };
}

test('history hooks: each scope keys its records by its own id', async () => {
  for (const [scope, key] of [
    ['execution', 'turn-9'],
    ['thread', 'thread-4'],
    ['resource', 'owner'],
  ] as const) {
    const { s, loads, appends } = storage();
    const layer = decisionsHistoryLayer({ scope, storage: s, maxRecords: 2 });
    const state = await layer.init!({ ctx });
    assert.deepEqual(loads, [{ layerId: 'decisionsHistory', scope, scopeKey: key }], scope);
    assert.deepEqual(
      state.records.map((r) => r.stepId),
      ['b', 'c'],
      `${scope}: loaded records trimmed to the newest 2`,
    );
    await layer.onDecision!({ state, record: rec('d', 4), ctx });
    assert.deepEqual(appends, [{ scopeKey: key, maxRecords: 2, stepId: 'd' }], scope);
  }
});

test('history hooks: maxRecords must be a whole number of at least 1', () => {
  for (const bad of [0, -1, 1.5]) {
    assert.throws(
      () => decisionsHistoryLayer({ maxRecords: bad }),
      (e: unknown) => (e as Error).message === 'maxRecords must be a whole number of at least 1',
      String(bad),
    );
  }
  assert.doesNotThrow(() => decisionsHistoryLayer({ maxRecords: 1 }));
});

test('history hooks: the layer sits 10 after working memory unless placed, and keeps its id', () => {
  assert.equal(decisionsHistoryLayer().slot, 110);
  assert.equal(decisionsHistoryLayer({ slot: 7 }).slot, 7);
  assert.equal(decisionsHistoryLayer({ id: 'mine' }).id, 'mine');
});

test('history hooks: a decision with no state yet starts the list; dropped records leave the inherited part first', async () => {
  const layer = decisionsHistoryLayer({ maxRecords: 2 });
  const first = await layer.onDecision!({ state: undefined as never, record: rec('a', 1), ctx });
  assert.deepEqual(first, { state: { records: [rec('a', 1)], inherited: 0 } });
  // Two inherited records, a third arrives: one inherited record is dropped from the front.
  const out = await layer.onDecision!({ state: { records: [rec('p', 1), rec('q', 2)], inherited: 2 }, record: rec('r', 3), ctx });
  assert.deepEqual(out, { state: { records: [rec('q', 2), rec('r', 3)], inherited: 1 } });
  const none = await layer.onDecision!({ state: { records: [rec('p', 1), rec('q', 2)], inherited: 0 }, record: rec('r', 3), ctx });
  assert.equal(none && none.state.inherited, 0, 'never below zero');
});

test('history hooks: a fork inherits the parent’s records; its return adds only what the child decided', () => {
  const layer = decisionsHistoryLayer({ maxRecords: 3 });
  assert.deepEqual(layer.onSpawn!({ parentState: undefined as never }), { records: [], inherited: 0 });
  const parent = { records: [rec('a', 1), rec('b', 2)], inherited: 1 };
  const child = layer.onSpawn!({ parentState: parent });
  assert.deepEqual(child, { records: [rec('a', 1), rec('b', 2)], inherited: 2 });
  const grown = { records: [...child.records, rec('c', 3), rec('d', 4)], inherited: 2 };
  assert.deepEqual(layer.onReturn!({ childState: grown, parentState: parent }), {
    records: [rec('b', 2), rec('c', 3), rec('d', 4)],
    inherited: 1,
  });
  assert.deepEqual(layer.onReturn!({ childState: grown, parentState: undefined as never }), {
    records: [rec('c', 3), rec('d', 4)],
    inherited: 0,
  });
});

test('history hooks: what the layer provides, with and without state', () => {
  const layer = decisionsHistoryLayer();
  assert.deepEqual(layer.provides!(undefined as never), { latest: {}, all: [] });
  const all = [rec('a', 1), rec('a', 2), rec('b', 3)];
  assert.deepEqual(layer.provides!({ records: all, inherited: 0 }), { latest: { a: rec('a', 2), b: rec('b', 3) }, all });
});
