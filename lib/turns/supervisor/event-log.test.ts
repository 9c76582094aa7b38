import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TurnEvent } from '@/lib/contract/events';
import { TurnEventLog, type EventLogStore } from './event-log';
import { LiveTurns, type StreamedEvent } from './live-turns';

/**
 * The event log over a store that answers later (as PostgreSQL's does, and SQLite's behind an
 * open transaction): events are stored in the order emitted and heard only once stored, and a
 * page that attaches while events keep coming gets each one once, in order.
 */

/** A store of events whose reads and writes each answer on a later turn of the event loop. */
function slowStore() {
  const rows: { seq: number; type: string; data: Record<string, unknown> }[] = [];
  const later = () => new Promise<void>((resolve) => setImmediate(resolve));
  const store = {
    rows,
    async appendEvent({ seq, type, data }: { seq: number; type: string; data: unknown }) {
      await later();
      rows.push({ seq, type, data: data as Record<string, unknown> });
    },
    async eventsAfter({ after }: { after: number }) {
      const found = rows.filter((r) => r.seq > after).map((r) => ({ ...r }));
      await later();
      return found;
    },
    getTurn: () => undefined,
    updateMessage: () => undefined,
    insertToolCall: () => undefined,
    storeCompactLog: () => undefined,
    deleteTurnSteps: () => undefined,
    decisionRowsOfThread: () => [],
    turnFacts: () => undefined,
    transaction: <T>(work: () => Promise<T>) => work(),
  };
  return store satisfies EventLogStore;
}

/** One turn live over a slow store, its log's clock at `now`. */
function aTurn<S extends EventLogStore>(store: S, now = 0) {
  const live = new LiveTurns();
  const log = new TurnEventLog(store, live, () => now);
  return { store, live, log, turn: live.track('t', 'th', 0) };
}

const status = (n: number): TurnEvent => ({ type: 'status', stage: 'thinking', queuePosition: n }) as TurnEvent;
const flush = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
};

test('events are stored in the order emitted, and heard only once stored', async () => {
  const { store, log, turn } = aTurn(slowStore());
  const heard: { seq: number; storedThen: number }[] = [];
  turn.listeners.add({ event: (e) => heard.push({ seq: e.seq, storedThen: store.rows.length }), end: () => undefined });
  for (let n = 1; n <= 5; n++) log.emit(turn, status(n));
  assert.equal(heard.length, 0, 'nothing is heard before it is stored');
  await log.flushed(turn);
  assert.deepEqual(
    store.rows.map((r) => r.seq),
    [1, 2, 3, 4, 5],
  );
  assert.deepEqual(
    heard,
    [1, 2, 3, 4, 5].map((seq) => ({ seq, storedThen: seq })),
  );
});

test('a page attaching while events keep coming hears each once, in order: what was stored, then what came after', async () => {
  const { log, turn } = aTurn(slowStore());
  log.emit(turn, status(1));
  log.emit(turn, status(2));
  await log.flushed(turn);
  const got: StreamedEvent[] = [];
  const subscribed = log.subscribe('t', 0, { event: (e) => got.push(e), end: () => undefined });
  // Emitted while the stored ones are being read: some land before the read, some after.
  for (let n = 3; n <= 6; n++) log.emit(turn, status(n));
  const sub = await subscribed;
  assert.equal(sub.live, true);
  log.emit(turn, status(7));
  await log.flushed(turn);
  await flush();
  assert.deepEqual(
    got.map((e) => e.seq),
    [1, 2, 3, 4, 5, 6, 7],
  );
  sub.unsubscribe();
  log.emit(turn, status(8));
  await log.flushed(turn);
  assert.equal(got.length, 7, 'nothing after unsubscribing');
});

test('a page attaching after the turn ended gets the stored events and is told nothing more will come', async () => {
  const { live, log, turn } = aTurn(slowStore());
  log.emit(turn, status(1));
  await log.flushed(turn);
  live.release(turn);
  const got: number[] = [];
  const sub = await log.subscribe('t', 0, { event: (e) => got.push(e.seq), end: () => got.push(-1) });
  assert.equal(sub.live, false);
  assert.deepEqual(got, [1]);
});

test('a page whose stream fails on the backlog is let go, and the turn goes on for the others', async () => {
  const { log, turn } = aTurn(slowStore());
  log.emit(turn, status(1));
  await log.flushed(turn);
  const sub = await log.subscribe('t', 0, {
    event: () => {
      throw new Error('a closed connection');
    },
    end: () => undefined,
  });
  assert.equal(sub.live, false);
  assert.equal(turn.listeners.size, 0);
});

test('an event stored but not yet heard when a page attaches is given to it once', async () => {
  // The partial save after a word answers later still: the word is stored, not yet heard.
  const slow = slowStore();
  const { store, log, turn } = aTurn({ ...slow, getTurn: async () => (await flush(), undefined) }, 1_000);
  log.emit(turn, { type: 'delta', text: 'Hello' } as TurnEvent);
  while (store.rows.length === 0) await new Promise((resolve) => setImmediate(resolve));
  const heard: number[] = [];
  const sub = await log.subscribe('t', 0, { event: (e) => heard.push(e.seq), end: () => undefined });
  await log.flushed(turn);
  assert.equal(sub.live, true);
  assert.deepEqual(heard, [1]);
});
