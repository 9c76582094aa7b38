import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ContextRuntime, type ContextLayer } from '@/lib/turns/context/layers';
import { decisionsHistoryLayer, renderDecisionsSummary, type DecisionStorage } from './history';
import type { DecisionRecord } from '@/lib/contract/decisions';

const triage: DecisionRecord = {
  stepId: 'triage',
  at: 1,
  modelId: 'm',
  source: 'native',
  answers: {
    destination: { kind: 'choice', value: 'billing', p: 0.8123 },
    isUrgent: { kind: 'boolean', value: true, p: 0.9249 },
    urgency: { kind: 'score', level: 'medium', value: 1.3 },
  },
};
const rec = (
  stepId: string,
  at: number,
  answers: DecisionRecord['answers'] = { ok: { kind: 'boolean', value: at % 2 === 0, p: at / 100 } },
): DecisionRecord => ({
  stepId,
  at,
  modelId: 'm',
  source: 'estimated',
  answers,
});
const ctx = { executionId: 'turn-1', threadId: 'thread-1', resourceId: 'user' };

function memoryStorage(): DecisionStorage & { rows: Map<string, DecisionRecord[]> } {
  const rows = new Map<string, DecisionRecord[]>();
  return {
    rows,
    load: ({ layerId, scope, scopeKey }) => [...(rows.get(`${layerId}/${scope}/${scopeKey}`) ?? [])],
    append: ({ layerId, scope, scopeKey, record, maxRecords }) => {
      const k = `${layerId}/${scope}/${scopeKey}`;
      rows.set(k, [...(rows.get(k) ?? []), record].slice(-maxRecords));
    },
  };
}

describe('recall rendering', () => {
  test('the example line, exactly', () => {
    assert.equal(
      renderDecisionsSummary([triage]),
      'Decisions so far:\n- triage: destination=billing (0.81), isUrgent=yes (0.92), urgency=medium (1.3)',
    );
  });

  test('no, refused, rounding, newest record per step only, free text left out', () => {
    const records: DecisionRecord[] = [
      rec('table_figure', 1, { asks_figure: { kind: 'boolean', value: true, p: 0.5 } }),
      rec('freshness', 2, { needs_fresh: { kind: 'boolean', value: false, p: 0.125 }, query: { kind: 'text', value: 'btc' } }),
      rec('table_figure', 3, { asks_figure: { refused: true, reason: 'junk' }, query: { kind: 'text', value: '' } }),
    ];
    assert.equal(
      renderDecisionsSummary(records),
      'Decisions so far:\n- freshness: needs_fresh=no (0.13)\n- table_figure: asks_figure=refused',
    );
    assert.equal(renderDecisionsSummary([]), null);
  });

  test('the gate’s judgements of drafts (the verdict, the classifier’s, the program’s) are shown, never summarised', () => {
    const verdict = rec('verdict', 1, { verdict: { kind: 'choice', value: 'answered', p: 0.9 } });
    const classifier = {
      ...rec('deferral_classifier', 2, { is_deferral: { kind: 'boolean', value: false, p: 0.1 } }),
      source: 'classifier' as const,
    };
    const program = { ...rec('acceptance', 3, { accepted_by: { kind: 'text', value: 'the verdict' } }), source: 'program' as const };
    assert.equal(renderDecisionsSummary([verdict, classifier, program]), null);
    assert.equal(
      renderDecisionsSummary([verdict, rec('freshness', 4, { needs_fresh: { kind: 'boolean', value: true, p: 0.9 } })]),
      'Decisions so far:\n- freshness: needs_fresh=yes (0.9)',
    );
  });
});

describe('decisions history layer', () => {
  test('the default id is a literal type and the data is exposed as latest and all', async () => {
    const rt = await ContextRuntime.create([decisionsHistoryLayer()] as const, ctx);
    await rt.recordDecision(rec('a', 1));
    await rt.recordDecision(rec('a', 2));
    const history = rt.context.decisionsHistory;
    // @ts-expect-error a misspelt key is a type error (checked by the typecheck in npm test)
    void rt.context.decisionHistory;
    assert.equal(history.all.length, 2);
    assert.equal(history.latest.a.at, 2);
    const custom = await ContextRuntime.create([decisionsHistoryLayer({ id: 'gateLog' })] as const, ctx);
    assert.deepEqual(custom.context.gateLog.all, []);
  });

  test('maxRecords drops the oldest first', async () => {
    const rt = await ContextRuntime.create([decisionsHistoryLayer({ maxRecords: 3 })] as const, ctx);
    for (let i = 1; i <= 5; i++) await rt.recordDecision(rec(`s${i}`, i));
    assert.deepEqual(
      rt.context.decisionsHistory.all.map((r) => r.at),
      [3, 4, 5],
    );
  });

  test('recall renders into the system part of the view; recall:false keeps data only', async () => {
    const on = await ContextRuntime.create([decisionsHistoryLayer()] as const, ctx);
    assert.deepEqual(await on.view(), []);
    await on.recordDecision(triage);
    const view = await on.view();
    assert.equal(view[0].role, 'system');
    assert.match((view[0] as { content: string }).content, /^Decisions so far:/);
    const off = await ContextRuntime.create([decisionsHistoryLayer({ recall: false })] as const, ctx);
    await off.recordDecision(triage);
    assert.deepEqual(await off.view(), []);
  });

  for (const scope of ['execution', 'thread', 'resource'] as const) {
    test(`scope ${scope} persists and a restart loads the saved records`, async () => {
      const storage = memoryStorage();
      const first = await ContextRuntime.create([decisionsHistoryLayer({ scope, storage })] as const, ctx);
      await first.recordDecision(rec('x', 1));
      // A restart of the same execution (or a later turn of the same thread / user) sees them.
      const sameKey =
        scope === 'execution' ? ctx : { ...ctx, executionId: 'turn-2', threadId: scope === 'resource' ? 'thread-9' : ctx.threadId };
      const second = await ContextRuntime.create([decisionsHistoryLayer({ scope, storage })] as const, sameKey);
      assert.equal(second.context.decisionsHistory.all.length, 1);
      const otherKey = { executionId: 'turn-3', threadId: 'thread-3', resourceId: 'someone-else' };
      const third = await ContextRuntime.create([decisionsHistoryLayer({ scope, storage })] as const, otherKey);
      assert.equal(third.context.decisionsHistory.all.length, 0);
    });
  }

  test('onDecision runs in slot order, one layer at a time, and a later layer reads what an earlier recorded', async () => {
    const order: string[] = [];
    const reader: ContextLayer<'reader', string[]> = {
      id: 'reader',
      slot: 500,
      init: () => [],
      onDecision: async ({ state }) => {
        order.push('reader');
        const seen = rt.context.decisionsHistory.all.length;
        return { state: [...state, `saw ${seen}`] };
      },
      provides: (s) => s,
    };
    const early: ContextLayer<'early', null> = { id: 'early', slot: 5, onDecision: () => void order.push('early') };
    const rt = await ContextRuntime.create([reader, decisionsHistoryLayer(), early] as const, ctx);
    await rt.recordDecision(rec('a', 1));
    assert.deepEqual(order, ['early', 'reader']);
    assert.deepEqual(rt.context.reader, ['saw 1']);
  });

  test('a hook that throws or times out becomes a diagnostic and does not fail the step', async () => {
    const thrower: ContextLayer<'thrower', null> = {
      id: 'thrower',
      slot: 1,
      onDecision: () => {
        throw new Error('bad hook');
      },
    };
    const sleeper: ContextLayer<'sleeper', null> = {
      id: 'sleeper',
      slot: 2,
      timeouts: { onDecision: 20 },
      onDecision: () => new Promise(() => undefined),
    };
    const rt = await ContextRuntime.create([thrower, sleeper, decisionsHistoryLayer()] as const, ctx);
    await rt.recordDecision(rec('a', 1));
    assert.equal(rt.context.decisionsHistory.all.length, 1);
    assert.deepEqual(
      rt.diagnostics.map((d) => `${d.layerId}.${d.hook}`),
      ['thrower.onDecision', 'sleeper.onDecision'],
    );
    assert.match(rt.diagnostics[1].message, /timed out/);
  });

  test('forks start with a copy; on return only the records a path added merge back', async () => {
    const rt = await ContextRuntime.create([decisionsHistoryLayer()] as const, ctx);
    await rt.recordDecision(rec('before', 1));
    const a = rt.fork();
    const b = rt.fork();
    assert.equal(a.context.decisionsHistory.all.length, 1);
    await a.recordDecision(rec('fromA', 2));
    await b.recordDecision(rec('fromB', 3));
    await rt.recordDecision(rec('parent', 4));
    rt.join(a);
    rt.join(b);
    assert.deepEqual(
      rt.context.decisionsHistory.all.map((r) => r.stepId),
      ['before', 'parent', 'fromA', 'fromB'],
    );
  });
});
