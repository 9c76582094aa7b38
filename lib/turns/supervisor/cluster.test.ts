import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { openPgSignals } from '@/db/pg/signals';
import { openPgStore } from '@/db/pg/store';
import type { Store } from '@/db/store';
import { ModelPool } from '@/lib/models/pool';
import type { ModelClient } from '@/lib/models/types';
import { decideBy, reply, scriptedModel } from '@/lib/dev/testing/scripted-model';
import { TEST_STORE_URL } from '@/lib/dev/testing/store';
import { createToolRegistry } from '@/lib/tools/registry';
import type { Signals } from './cluster';
import { TurnSupervisor, type StreamedEvent } from './supervisor';

/**
 * Two Hearth processes on one PostgreSQL library, each with its own connections and its own
 * LISTEN connection, as two `next start` processes have them: a turn run by one is streamed,
 * stopped and answered through the other, taken over when its process stops renewing its lease,
 * and handed over when its process stops. (The process test in e2e/contract/processes.test.ts
 * does the same with two servers and a SIGKILL.) PostgreSQL only: SQLite's file is one process's.
 */

const LEASE_MS = 1000;
const skip = TEST_STORE_URL ? false : 'several processes share a PostgreSQL database (set TEST_DATABASE_URL)';

/** What a test opened, closed after it: each test's processes are gone before the next begins. */
type Closing = (() => Promise<unknown>)[];
const closeAll = async (closing: Closing) => {
  for (const close of closing.reverse()) await close().catch(() => undefined);
};

/** A model that writes its first words, then waits until `release` (or its call is stopped), then answers as scripted. */
function heldModel(answer: string) {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const scripted = scriptedModel({ rounds: [reply(answer), reply(answer)], decide: decideBy({}) });
  const model: ModelClient = {
    health: () => scripted.health(),
    chat: async (req, options) => {
      if (req.jsonSchema) return scripted.chat(req, options);
      options?.onDelta?.('Half ');
      await new Promise<void>((resolve, reject) => {
        void released.then(resolve);
        options?.signal?.addEventListener('abort', () => reject(options.signal?.reason ?? new Error('aborted')), { once: true });
      });
      return scripted.chat(req, options);
    },
  };
  return { model, release };
}

/** One process: its own store (pool) on the shared library, its own signals, its own clock. */
async function processOn(
  closing: Closing,
  schema: string,
  model: ModelClient,
  clock: { t: number },
  { frozen }: { frozen?: () => boolean } = {},
) {
  const store = await openPgStore(TEST_STORE_URL!, schema, { maxConnections: 3 });
  closing.push(() => store.close());
  const signals: Signals = await openPgSignals(TEST_STORE_URL!, { log: () => undefined });
  closing.push(() => signals.close());
  // A process that died: every write it would still make never happens.
  const seen: Store = frozen
    ? (new Proxy(store, {
        get: (target, key) => {
          const value = Reflect.get(target, key) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) =>
            frozen() ? new Promise(() => undefined) : (value as (...a: unknown[]) => unknown).apply(target, args);
        },
      }) as Store)
    : store;
  const pool = new ModelPool([{ url: 'scripted', client: model }]);
  const supervisor = new TurnSupervisor({
    store: seen,
    models: () => pool,
    tools: () => ({
      registry: createToolRegistry([]),
      researchAvailable: async () => false,
      deps: (threadId) => ({ now: () => 0, timezone: 'UTC', threadId }),
    }),
    now: () => clock.t,
    identity: () => ({ assistantName: 'Hearth', timezone: 'UTC' }),
    log: () => undefined,
    cluster: { signals, library: schema, leaseMs: LEASE_MS },
  });
  closing.push(async () => supervisor.close());
  return { store, signals, supervisor };
}

async function twoProcesses(t: TestContext, opts: { firstFrozen?: () => boolean } = {}) {
  const closing: Closing = [];
  // The signal connections hold no process open (db/pg/signals.ts): while a test waits for one, this does, as a server's socket would.
  const keepAlive = setInterval(() => undefined, 60_000);
  closing.push(async () => clearInterval(keepAlive));
  t.after(() => closeAll(closing));
  const schema = `hearth_${randomBytes(16).toString('hex')}`;
  const clock = { t: Date.now() };
  const held = heldModel('The whole answer.');
  const first = await processOn(closing, schema, held.model, clock, { frozen: opts.firstFrozen });
  const second = await processOn(closing, schema, scriptedModel({ rounds: [reply('The whole answer.')], decide: decideBy({}) }), clock);
  await first.store.createThread({ id: 'th', title: '', now: 0 });
  return { first, second, clock, release: held.release };
}

/** Follows a turn through a process until it ends; `heard` fills as events come. */
function follow(supervisor: TurnSupervisor, turnId: string) {
  const heard: StreamedEvent[] = [];
  let onEvent = () => undefined as void;
  const done = supervisor.follow(turnId, (e) => {
    heard.push(e);
    onEvent();
  });
  const until = (check: (events: StreamedEvent[]) => boolean) =>
    new Promise<void>((resolve) => {
      onEvent = () => check(heard) && resolve();
      onEvent();
    });
  return { heard, done, until };
}

const hasWords = (words: string) => (events: StreamedEvent[]) => events.some((e) => e.type === 'delta' && e.text === words);

/** Every event number once, in order: nothing doubled, nothing skipped. */
function assertOnceEach(events: StreamedEvent[]) {
  const seqs = events.map((e) => e.seq);
  assert.deepEqual(
    seqs,
    [...new Set(seqs)].sort((a, b) => a - b),
    'each event once, in order',
  );
}

describe('several processes on one database', { skip }, () => {
  test('a turn run by one process streams live through the other, to its end', async (t) => {
    const { first, second, release } = await twoProcesses(t);
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    // Heard through the second while the first still runs it: live, not after the fact.
    await through.until(hasWords('Half '));
    assert.equal(first.supervisor.isLive(turnId), true);
    release();
    await through.done;
    assert.equal(through.heard.at(-1)?.type, 'done');
    assertOnceEach(through.heard);
    const answer = await second.store.getMessage({ id: assistantMessageId });
    assert.deepEqual([answer?.content, answer?.status], ['The whole answer.', 'complete']);
  });

  test('stop asked through the other process stops the turn where it runs', async (t) => {
    const { first, second } = await twoProcesses(t);
    const { turnId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    assert.equal(await second.supervisor.cancel(turnId), true);
    await through.done;
    const ending = through.heard.at(-1);
    assert.deepEqual([ending?.type, ending?.type === 'error' && ending.code], ['error', 'cancelled']);
    assert.equal((await second.store.getTurn({ id: turnId }))?.status, 'cancelled');
    assert.equal(await second.supervisor.cancel(turnId), false, 'a finished turn is stopped nowhere');
  });

  test('a process that dies mid-turn: another takes the turn over once its lease lapses, nothing doubled', async (t) => {
    let dead = false;
    const { first, second, clock } = await twoProcesses(t, { firstFrozen: () => dead });
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    // Its lease is taken (the claim lands just after the turn starts).
    await new Promise<void>((resolve) => {
      const check = async () => ((await second.store.getTurn({ id: turnId }))?.leaseOwner ? resolve() : setImmediate(check));
      void check();
    });
    dead = true;
    first.supervisor.close();
    assert.deepEqual(await second.supervisor.takeOver(), [], 'not before its lease lapses');
    clock.t += LEASE_MS + 1;
    assert.deepEqual(await second.supervisor.takeOver(), [turnId]);
    await through.done;
    assertOnceEach(through.heard);
    assert.deepEqual(
      through.heard.filter((e) => e.type === 'status' && e.stage === 'resumed').length,
      1,
      'the page hears it resumed, once',
    );
    assert.equal(through.heard.at(-1)?.type, 'done');
    assert.equal(through.heard.filter((e) => e.type === 'done').length, 1);
    const answer = await second.store.getMessage({ id: assistantMessageId });
    assert.deepEqual([answer?.content, answer?.status], ['The whole answer.', 'complete']);
    const turn = await second.store.getTurn({ id: turnId });
    assert.equal(turn?.status, 'done');
    assert.equal(turn?.leaseOwner, second.signals.process);
  });

  test('a process whose connection is gone (killed): its turn is taken over at once, not a lease later', async (t) => {
    let dead = false;
    const { first, second } = await twoProcesses(t, { firstFrozen: () => dead });
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    await new Promise<void>((resolve) => {
      const check = async () => ((await second.store.getTurn({ id: turnId }))?.leaseOwner ? resolve() : setImmediate(check));
      void check();
    });
    dead = true;
    first.supervisor.close();
    // A killed process's connections close with it: the database no longer lists it.
    await first.signals.close();
    assert.deepEqual(await second.supervisor.takeOver(), [turnId]);
    await through.done;
    assertOnceEach(through.heard);
    assert.equal((await second.store.getMessage({ id: assistantMessageId }))?.status, 'complete');
  });

  test('a process stopped with SIGTERM hands its turns over at once', async (t) => {
    const { first, second } = await twoProcesses(t);
    const { turnId, assistantMessageId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    // No lease has lapsed: the second takes it because the first gave it up and said so.
    const { handedOver, stopped } = await first.supervisor.handOver();
    assert.deepEqual([handedOver, stopped], [[turnId], []]);
    await through.done;
    assertOnceEach(through.heard);
    assert.equal(through.heard.at(-1)?.type, 'done');
    const answer = await second.store.getMessage({ id: assistantMessageId });
    assert.deepEqual([answer?.content, answer?.status], ['The whole answer.', 'complete']);
    assert.equal(first.supervisor.isLive(turnId), false);
  });

  test('with no other process running, SIGTERM stops the turns as one process does', async (t) => {
    const { first, second } = await twoProcesses(t);
    await second.signals.close();
    const { turnId } = await first.supervisor.start({ threadId: 'th', content: 'Explain closures.' });
    const here = follow(first.supervisor, turnId);
    await here.until(hasWords('Half '));
    const { handedOver, stopped } = await first.supervisor.handOver();
    assert.deepEqual([handedOver, stopped], [[], [turnId]]);
    assert.equal((await first.store.getTurn({ id: turnId }))?.status, 'interrupted');
  });
});
