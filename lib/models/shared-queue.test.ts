import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { QueueEntry, QueueRow } from '@/lib/contract/model-queue';
import type { Store } from '@/db/store';
import { signalBus } from '@/lib/dev/testing/signal-bus';
import { freshEngineStore } from '@/lib/dev/testing/store';
import { HEARTH_WIDE } from '@/lib/contract/cluster-signals';
import { ModelPool } from './pool';
import { lineUp, servingOrder } from './shared-queue';
import type { ModelClient } from './types';

/** One llama-server with `slots` slots (the last kept for side calls when there are two or more). */
const llama = (url: string, slots: number): ModelClient => ({
  health: async () => ({ url, reachable: true, id: 'model', slots }),
  chat: async () => assert.fail('no call is made in these tests'),
});

const row = (turnId: string, over: Partial<QueueRow> = {}): QueueRow => ({
  turnId,
  process: 'p',
  threadId: `thread-${turnId}`,
  person: null,
  model: null,
  avoidUrl: null,
  seq: 0,
  serverUrl: null,
  slot: null,
  refused: false,
  leaseUntil: 0,
  ...over,
});

describe('the order waiting turns are served in', () => {
  test('a new turn lines up round-robin by person, as the in-memory queue has it', () => {
    const entry = (turnId: string, person: string | null): QueueEntry => ({ turnId, threadId: 't', person, model: null, avoidUrl: null });
    // Alice runs one and waits with another: Bob, with nothing, goes before her second.
    const alice = [row('a1', { person: 'alice', seq: 1, serverUrl: 'http://m', slot: 0 }), row('a2', { person: 'alice', seq: 2 })];
    assert.equal(lineUp(alice, entry('b1', 'bob')), 'a2');
    // Bob's second goes after Alice's second (a round each), no one's at the back.
    const line = [...alice, row('b1', { person: 'bob', seq: 3 }), row('a3', { person: 'alice', seq: 4 })];
    assert.deepEqual([lineUp(line, entry('b2', 'bob')), lineUp(line, entry('x', null))], ['a3', null]);
    // Alice's first ended meanwhile: she has nothing running, so Dan arriving now goes after her second.
    const later = [
      row('b1', { person: 'bob', seq: 1, serverUrl: 'http://m', slot: 1 }),
      row('c1', { person: 'carol', seq: 2 }),
      row('a2', { person: 'alice', seq: 3 }),
    ];
    assert.equal(lineUp(later, entry('d1', 'dan')), null);
    // A turn moving off a failed server goes first whatever its place.
    assert.equal(lineUp(alice, { ...entry('m', 'alice'), avoidUrl: 'http://dead' }), null);
  });

  test('a turn moving away from a server that failed goes first; granted and refused turns are not waiting', () => {
    const rows = [
      row('w', { person: 'alice', seq: 1 }),
      row('moved', { person: 'alice', seq: 9, avoidUrl: 'http://dead' }),
      row('refused', { seq: 2, refused: true }),
    ];
    assert.deepEqual(
      servingOrder(rows).map((r) => r.turnId),
      ['moved', 'w'],
    );
  });
});

/** Two Hearth processes' pools on one store (the database's shared queue), each with its own signals. */
async function twoPools(slots: number, opts: { leaseMs?: number; now?: () => number; skewOfA?: number } = {}) {
  const store: Store = await freshEngineStore();
  const bus = signalBus();
  const make = (process: string, skew = 0) => {
    const now = opts.now;
    return new ModelPool([{ url: 'http://m', client: llama('http://m', slots) }], {
      shared: {
        store,
        // A machine whose clock is `skew` wrong: its database link says by how much.
        signals: bus.join(process, { clockOffsetMs: -skew }),
        leaseMs: opts.leaseMs ?? 60_000,
        ...(now ? { now: () => now() + skew } : {}),
      },
    });
  };
  const a = make('A', opts.skewOfA);
  const b = make('B');
  const close = async () => {
    a.close();
    b.close();
    await store.close();
  };
  return { a, b, bus, store, close };
}

/** A turn entering a pool: whether it got a slot yet, and the places it heard while it waited. */
function entering(pool: ModelPool, turnId: string, person?: string) {
  const heard: number[] = [];
  let admitted = false;
  const lease = pool
    .enter(turnId, `thread-${turnId}`, (n) => heard.push(n), person === undefined ? {} : { person })
    .then((l) => ((admitted = Boolean(l)), l));
  return { lease, heard, admitted: () => admitted };
}

/** Until `check` holds: the processes' looks at the queue and their signals run meanwhile. */
async function until(check: () => boolean) {
  for (let i = 0; i < 2500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  assert.ok(check(), 'it came to pass');
}

/** Until what `look` reads satisfies `check`. */
async function untilSeen<T>(look: () => Promise<T>, check: (seen: T) => boolean) {
  for (let i = 0; i < 2500; i++) {
    if (check(await look())) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.fail('it never came to pass');
}

/**
 * The queue as a third process sees it at `now`, once `renewed`'s row was renewed then (its
 * process looked): each turn, running or waiting.
 */
async function afterRenewal(store: Store, now: number, renewed: string) {
  const seen = async () => (await store.settleModelQueue({ process: 'C', now, until: now, lineUp: () => null, decide: () => [] })).rows;
  await untilSeen(seen, (rows) => rows.some((r) => r.turnId === renewed && r.leaseUntil === now + 60_000));
  return (await seen()).map((r) => [r.turnId, r.serverUrl === null ? 'waiting' : 'running']);
}

/**
 * A's turn holds the one slot, B's waits; half a lease on, B looks (renewing its row) and A's
 * row is still held. `skewOfA`: how wrong A's machine's clock is.
 */
async function halfALeaseOn(skewOfA = 0) {
  const clock = { t: 100_000 };
  const pools = await twoPools(1, { leaseMs: 60_000, now: () => clock.t, skewOfA });
  try {
    assert.ok(await entering(pools.a, 'held').lease);
    const waiting = entering(pools.b, 'waiting');
    await until(() => waiting.heard.length > 0);
    clock.t += 30_000;
    pools.bus.tell('B', { kind: 'resync', library: HEARTH_WIDE });
    assert.deepEqual(
      await afterRenewal(pools.store, clock.t, 'waiting'),
      [
        ['held', 'running'],
        ['waiting', 'waiting'],
      ],
      'within the lease the slot is still held',
    );
    return { ...pools, clock, waiting };
  } catch (err) {
    await pools.close();
    throw err;
  }
}

describe('one slot queue for several processes', () => {
  test('two processes never run more turns than the server has slots; a freed slot goes to the other process’s turn', async () => {
    const { a, b, close } = await twoPools(3);
    try {
      const t1 = entering(a, 't1');
      const t2 = entering(a, 't2');
      assert.ok(await t1.lease);
      assert.ok(await t2.lease);
      const t3 = entering(b, 't3');
      await until(() => t3.heard.length > 0);
      assert.deepEqual(t3.heard, [1], 'the third waits first in line, in the process that did not start the others');
      assert.equal(t3.admitted(), false);
      assert.equal(b.status[0].running, 2, 'the other process counts the first’s turns on the server');
      a.leave('t1');
      const lease = await t3.lease;
      assert.ok(lease, 'the slot the first process gave back is the third turn’s');
      assert.equal(b.stats.running, 1);
      // The first process's health report counts the second's turn (it looks again to say).
      await a.refresh();
      assert.equal(a.status[0].running, 2);
      a.leave('t2');
      b.leave('t3');
      await Promise.all([a.settled(), b.settled()]);
      await a.refresh();
      assert.equal(a.status[0].running, 0, 'and none once all have left');
      const lane = a.idle();
      assert.ok(lane, 'so background work may run');
      lane.release();
    } finally {
      await close();
    }
  });

  test('people take turns across processes: Bob’s one turn goes before Alice’s second', async () => {
    const { a, b, close } = await twoPools(1);
    try {
      const first = entering(a, 'alice-1', 'alice');
      assert.ok(await first.lease);
      const second = entering(a, 'alice-2', 'alice');
      await until(() => second.heard.length > 0);
      const bob = entering(b, 'bob-1', 'bob');
      await until(() => bob.heard.length > 0 && second.heard.length > 1);
      assert.deepEqual(bob.heard, [1], 'Bob came later but has nothing running');
      assert.deepEqual(second.heard, [1, 2], 'Alice’s second moves back one');
      a.leave('alice-1');
      assert.ok(await bob.lease);
      assert.equal(second.admitted(), false);
      b.leave('bob-1');
      assert.ok(await second.lease);
    } finally {
      await close();
    }
  });

  test('a process that stops renewing (it died) holds its slots until its rows lapse', async () => {
    // Half a lease on, the living process renews its rows as it looks; the dead one does not.
    const { bus, clock, waiting, close } = await halfALeaseOn();
    try {
      clock.t += 31_000;
      bus.tell('B', { kind: 'resync', library: HEARTH_WIDE });
      assert.ok(await waiting.lease, 'past it, the slot is free');
    } finally {
      await close();
    }
  });

  test('a process whose machine’s clock is a minute behind keeps its slot: rows’ leases are in the database’s time', async () => {
    // In its own clock's time, its row lapsed half a lease ago.
    const { a, waiting, close } = await halfALeaseOn(-60_000);
    try {
      assert.equal(waiting.admitted(), false);
      a.leave('held');
      assert.ok(await waiting.lease);
    } finally {
      await close();
    }
  });

  test('a turn taken over by another process is its row from then on: the first process’s leave does not remove it', async () => {
    const { a, b, store, close } = await twoPools(1);
    try {
      assert.ok(await entering(a, 'moved').lease);
      const taken = entering(b, 'moved');
      assert.ok(await taken.lease, 'the other process runs it now, on the slot it had');
      a.leave('moved');
      const other = entering(a, 'next');
      await until(() => other.heard.length > 0);
      assert.deepEqual(other.heard, [1], 'the slot is still the taken-over turn’s');
      const { rows } = await store.settleModelQueue({ process: 'C', now: 0, until: 0, lineUp: () => null, decide: () => [] });
      assert.deepEqual(
        rows.map((r) => [r.turnId, r.process.replace(/#\d+$/, ''), r.serverUrl === null ? 'waiting' : 'running']),
        [
          ['moved', 'B', 'running'],
          ['next', 'A', 'waiting'],
        ],
      );
      b.leave('moved');
      assert.ok(await other.lease);
    } finally {
      await close();
    }
  });

  test('the slot passes back and forth between the processes, every time (no look asked for is lost)', async () => {
    const { a, b, close } = await twoPools(1);
    try {
      for (let i = 0; i < 40; i++) {
        const [from, to] = i % 2 ? [a, b] : [b, a];
        assert.ok(await entering(from, `held-${i}`).lease, `round ${i}: the free slot`);
        const waiting = entering(to, `waiting-${i}`);
        await until(() => waiting.heard.length > 0);
        from.leave(`held-${i}`);
        assert.ok(await waiting.lease, `round ${i}: the slot given back`);
        to.leave(`waiting-${i}`);
        await to.settled();
      }
    } finally {
      await close();
    }
  });

  test('a settings change: the old pool’s turns get slots only on its own servers, the new pool’s at once after, even a turn entering the old pool after it closed', async () => {
    const store: Store = await freshEngineStore();
    const signals = signalBus().join('A');
    const pool = (url: string) => new ModelPool([{ url, client: llama(url, 1) }], { shared: { store, signals, leaseMs: 60_000 } });
    const old = pool('http://old');
    try {
      assert.ok(await entering(old, 'running').lease);
      const fresh = pool('http://new');
      old.close();
      // Entered the old pool after the change (the turn picked its pool before it), behind the running one.
      const late = entering(old, 'late');
      await until(() => late.heard.length > 0);
      const next = entering(fresh, 'next');
      await until(() => next.heard.length > 0);
      assert.equal(late.admitted(), false, 'the new server’s free slot is not given to a turn of the old pool');
      assert.deepEqual(next.heard, [2], 'the new pool’s turn waits behind it');
      old.leave('running');
      const lateLease = await late.lease;
      assert.equal(lateLease?.url, 'http://old', 'the old pool’s turn runs on the old server');
      assert.equal((await next.lease)?.url, 'http://new', 'and the new pool’s at once, told within the process');
      fresh.close();
    } finally {
      old.close();
      await store.close();
    }
  });

  test('a process that looks late keeps its own rows (it is alive); another’s lapsed rows go', async () => {
    const store: Store = await freshEngineStore();
    try {
      const entry = (turnId: string) => ({ turnId, threadId: 't', person: null, model: null, avoidUrl: null });
      const none = () => [];
      await store.settleModelQueue({ process: 'P', now: 0, until: 10, join: [entry('mine')], lineUp: () => null, decide: none });
      await store.settleModelQueue({ process: 'Q', now: 0, until: 10, join: [entry('theirs')], lineUp: () => null, decide: none });
      const { rows, changed } = await store.settleModelQueue({ process: 'P', now: 100, until: 200, lineUp: () => null, decide: none });
      assert.deepEqual(
        rows.map((r) => [r.turnId, r.leaseUntil]),
        [['mine', 200]],
      );
      assert.equal(changed, true, 'the others are told a row went');
    } finally {
      await store.close();
    }
  });

  test('a turn stopped while it waits leaves the queue in every process’s eyes', async () => {
    const { a, b, close } = await twoPools(1);
    try {
      assert.ok(await entering(a, 'running').lease);
      const stopped = entering(b, 'stopped');
      const after = entering(a, 'after');
      await until(() => stopped.heard.length > 0 && after.heard.length > 0);
      assert.deepEqual(after.heard, [2]);
      b.leave('stopped');
      assert.equal(await stopped.lease, null, 'it left without a slot');
      await until(() => after.heard.length > 1);
      assert.deepEqual(after.heard, [2, 1], 'the turn behind it moved up');
    } finally {
      await close();
    }
  });
});
