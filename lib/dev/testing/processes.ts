import { randomBytes } from 'node:crypto';
import { openPgSignals } from '@/db/pg/signals';
import { openPgStore } from '@/db/pg/store';
import type { Store } from '@/db/store';
import { ModelPool } from '@/lib/models/pool';
import type { ModelClient } from '@/lib/models/types';
import { createToolRegistry } from '@/lib/tools/registry';
import type { Tool } from '@/lib/tools/types';
import type { Signals } from '@/lib/turns/supervisor/cluster';
import { TurnSupervisor, type StreamedEvent } from '@/lib/turns/supervisor/supervisor';
import { decideBy, reply, scriptedModel } from './scripted-model';

/**
 * Two Hearth processes on one PostgreSQL library, in one Node process: each with its own
 * connections (its store's pool and its LISTEN connection) and its own turn supervisor, as two
 * `next start` have them. The test of several processes (lib/turns/supervisor/cluster.test.ts)
 * and the bench's hand-over figure (scripts/bench-handover.ts) run turns across them.
 */

/** What a test opened, closed after it: each test's processes are gone before the next begins. */
export type Closing = (() => Promise<unknown>)[];
export const closeAll = async (closing: Closing) => {
  for (const close of closing.reverse()) await close().catch(() => undefined);
};

/** A model that writes its first words, then waits until `release` (or its call is stopped), then answers as scripted. */
export function heldModel(answer: string) {
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
  url: string,
  leaseMs: number,
  closing: Closing,
  schema: string,
  model: ModelClient,
  clock: { t: number },
  { frozen, skewMs = 0, tools = [] }: { frozen?: () => boolean; skewMs?: number; tools?: Tool[] } = {},
) {
  const store = await openPgStore(url, schema, { maxConnections: 3 });
  closing.push(() => store.close());
  // Its machine's clock set `skewMs` wrong: the database's clock is read against the real one so
  // set, and the test's own clock (which moves only when a test moves it) stands for it otherwise.
  const local = () => clock.t + skewMs;
  const signals: Signals = await openPgSignals(url, { log: () => undefined, localClock: () => Date.now() + skewMs });
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
  // One slot queue for both, in the database, as a running Hearth has it (lib/models/shared-queue.ts).
  const pool = new ModelPool([{ url: 'scripted', client: model }], { shared: { store: seen, signals, leaseMs, now: local } });
  const supervisor = new TurnSupervisor({
    store: seen,
    models: () => pool,
    tools: () => ({
      registry: createToolRegistry(tools),
      researchAvailable: async () => false,
      deps: (threadId) => ({ now: () => 0, timezone: 'UTC', threadId }),
    }),
    now: local,
    identity: () => ({ assistantName: 'Hearth', timezone: 'UTC' }),
    log: () => undefined,
    cluster: { signals, library: schema, leaseMs },
  });
  closing.push(async () => supervisor.close());
  closing.push(async () => pool.close());
  return { store, signals, supervisor };
}

/**
 * Two processes on a new library of the database `url`: the first's model holds its answer after
 * its first words (until `release`), the second's answers at once; `firstFrozen` says when the
 * first has died (none of its writes happen any more); `firstSkewMs`, how wrong the first's
 * machine's clock is; `firstModel` replaces the first's model; `tools` are both processes' tools.
 * What was opened is closed by `closing`.
 */
export async function twoProcesses(
  url: string,
  leaseMs: number,
  closing: Closing,
  opts: { firstFrozen?: () => boolean; firstSkewMs?: number; firstModel?: ModelClient; tools?: Tool[] } = {},
) {
  // The signal connections hold no process open (db/pg/signals.ts): while a caller waits for one, this does, as a server's socket would.
  const keepAlive = setInterval(() => undefined, 60_000);
  closing.push(async () => clearInterval(keepAlive));
  const schema = `hearth_${randomBytes(16).toString('hex')}`;
  const clock = { t: Date.now() };
  const held = heldModel('The whole answer.');
  const first = await processOn(url, leaseMs, closing, schema, opts.firstModel ?? held.model, clock, {
    frozen: opts.firstFrozen,
    skewMs: opts.firstSkewMs,
    tools: opts.tools,
  });
  const second = await processOn(
    url,
    leaseMs,
    closing,
    schema,
    scriptedModel({ rounds: [reply('The whole answer.')], decide: decideBy({}) }),
    clock,
    { tools: opts.tools },
  );
  await first.store.createThread({ id: 'th', title: '', now: 0 });
  return { first, second, clock, release: held.release };
}

/** Follows a turn through a process until it ends; `heard` fills as events come. */
export function follow(supervisor: TurnSupervisor, turnId: string) {
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

export const hasWords = (words: string) => (events: StreamedEvent[]) => events.some((e) => e.type === 'delta' && e.text === words);

/** Until a process holds the turn's lease (a turn's claim lands just after it starts). */
export async function untilLeased(store: Store, turnId: string) {
  while (!(await store.getTurn({ id: turnId }))?.leaseOwner) await new Promise((resolve) => setImmediate(resolve));
}
