import { openPgSignals } from '@/db/pg/signals';
import { openPgStore } from '@/db/pg/store';
import { ModelPool } from '@/lib/models/pool';
import type { ModelClient } from '@/lib/models/types';

/**
 * The model servers' slot queue shared by two Hearth processes on one PostgreSQL database
 * (lib/models/shared-queue.ts; scripts/bench.ts, with BENCH_DATABASE_URL), one llama-server
 * with one slot between them:
 * - a turn's way in with the slot free: from asking to holding it (one look at the queue);
 * - the slot passing between processes: from the first process's turn leaving to the second's
 *   waiting turn holding it (the first's look, its NOTIFY, the second's look).
 */

export type QueueFigures = { enter: number[]; handOn: number[] };

/** A llama-server with one slot, never asked to answer here. */
const oneSlot: ModelClient = {
  health: async () => ({ url: 'http://model', reachable: true, id: 'model', slots: 1 }),
  chat: async () => {
    throw new Error('the queue bench asks for slots, not answers');
  },
};

export async function measureSharedQueue(url: string, { runs = 50, leaseMs = 10_000 } = {}): Promise<QueueFigures> {
  const store = await openPgStore(url, 'hearth', { maxConnections: 4 });
  const processes = await Promise.all(
    ['first', 'second'].map(async () => {
      const signals = await openPgSignals(url, { log: () => undefined });
      const pool = new ModelPool([{ url: 'http://model', client: oneSlot }], { shared: { store, signals, leaseMs } });
      await pool.ready();
      return { signals, pool };
    }),
  );
  const [first, second] = processes.map((p) => p.pool);
  const enter: number[] = [];
  const handOn: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const asked = performance.now();
      if (!(await first.enter(`held-${i}`, `thread-a-${i}`, () => undefined, { person: 'a' }))) throw new Error('no slot');
      enter.push(performance.now() - asked);
      let placed!: () => void;
      const queued = new Promise<void>((resolve) => (placed = resolve));
      const waiting = second.enter(`waiting-${i}`, `thread-b-${i}`, () => placed(), { person: 'b' });
      await queued;
      const left = performance.now();
      first.leave(`held-${i}`);
      if (!(await waiting)) throw new Error('no slot');
      handOn.push(performance.now() - left);
      second.leave(`waiting-${i}`);
      await second.settled();
    }
  } finally {
    for (const { pool, signals } of processes) {
      pool.close();
      await pool.settled();
      await signals.close();
    }
    await store.close();
  }
  return { enter, handOn };
}
