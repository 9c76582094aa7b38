import { HEARTH_WIDE, RENEWALS_PER_LEASE, type Signals } from '@/lib/contract/cluster-signals';
import type { QueueEntry, QueueGrant, QueueRow, QueueStore } from '@/lib/contract/model-queue';

/**
 * The model servers' slot queue shared by several Hearth processes on one database. One
 * llama-server has one to four slots; two processes each queueing for all of them would send
 * it up to twice as many turns as it can run, and the place a page shows and the fairness
 * between people would hold within one process only. So every waiting and running turn of
 * every process is a row of one table (lib/contract/model-queue.ts, db/queries/model-queue.ts), and each look at it is one
 * transaction: the process that looks places every waiting turn it can, its own and others',
 * by the pool's rules (pool.ts), and says so with a `slots` signal; the others look again and
 * start the turns they were granted. A process renews its rows as it renews its turns' leases;
 * one that dies holds its slots until its rows lapse (one lease), then they are free again.
 *
 * Each look is one short transaction that no other process's look runs beside (an advisory
 * lock on PostgreSQL), so two looks never grant the same slot and neither has to run again.
 * The costs: one look when a turn enters, one when it leaves, one by each process with turns
 * waiting that heard of it, and one every third of a lease while a process has turns in the
 * queue (npm run bench measures a turn's way in and a slot passing between processes).
 */

/** How soon a look that failed is made again. */
const RETRY_MS = 500;

export type SharedSlots = { store: QueueStore; signals: Signals; leaseMs: number; now?: () => number };

/** Where a granted turn runs. */
export type Grant = { url: string; slot: number };

/**
 * The order waiting turns are served in. Turns moving away from a server that failed go first
 * (they had a slot). The rest go round-robin by person: a turn's round is how many turns of its
 * person held a slot or waited when it came (lib/contract/model-queue.ts, db/queries/model-queue.ts), so someone with nothing
 * running goes before another's second and third turns; within a round, in the order they came.
 */
export function servingOrder(rows: readonly QueueRow[]): QueueRow[] {
  const waiting = rows.filter((r) => r.serverUrl === null && !r.refused);
  const moving = waiting.filter((r) => r.avoidUrl !== null).sort((a, b) => a.seq - b.seq);
  const rest = waiting.filter((r) => r.avoidUrl === null).sort((a, b) => a.round - b.round || a.seq - b.seq);
  return [...moving, ...rest];
}

type Waiting = {
  entry: QueueEntry;
  admit: (grant: Grant | null) => void;
  notify: (position: number) => void;
  /** The place it last heard: a look that leaves it where it was says nothing. */
  position?: number;
};

/**
 * This process's side of the shared queue: its waiting turns, its looks at the table, its
 * renewals. `decide` is the pool's placement over every row; `saw` hears every row after each
 * look (the pool counts its servers' busy slots from them).
 */
export class SharedQueue {
  private readonly waiting = new Map<string, Waiting>();
  private readonly joining = new Map<string, QueueEntry>();
  private readonly leaving = new Set<string>();
  /** Turns of this process holding a slot now. */
  private readonly holding = new Set<string>();
  private looking: Promise<void> | null = null;
  /** The next look after one that failed (the database could not be reached). */
  private retry: NodeJS.Timeout | null = null;
  private lookAgain = false;
  private readonly renewals: NodeJS.Timeout;
  private readonly unlisten: () => void;
  private closed = false;
  private readonly now: () => number;

  constructor(
    private readonly shared: SharedSlots,
    private readonly rules: {
      decide: (rows: readonly QueueRow[]) => QueueGrant[];
      saw: (rows: readonly QueueRow[]) => void;
      log?: (message: string) => void;
    },
  ) {
    this.now = shared.now ?? Date.now;
    // Another process's turn left or was placed: this one's waiting turns may have a slot now.
    this.unlisten = shared.signals.listen(HEARTH_WIDE, (signal) => {
      if ((signal.kind === 'slots' || signal.kind === 'resync') && this.waiting.size) void this.look();
    });
    // Rows are renewed while this process has turns in the queue; a look also drops the rows of
    // processes that died, so turns waiting here get their slots.
    this.renewals = setInterval(() => {
      if (this.waiting.size || this.holding.size) void this.look();
    }, shared.leaseMs / RENEWALS_PER_LEASE);
    this.renewals.unref();
  }

  /** Queues a turn; resolves with its slot, or null when no server can take it or it left first. */
  enter(entry: QueueEntry, notify: (position: number) => void): Promise<Grant | null> {
    return new Promise((admit) => {
      this.waiting.set(entry.turnId, { entry, admit, notify });
      this.leaving.delete(entry.turnId);
      this.holding.delete(entry.turnId);
      this.joining.set(entry.turnId, entry);
      void this.look();
    });
  }

  /** The turn gives its slot (or its place) back. */
  leave(turnId: string) {
    // Asked again (a stopped turn leaves when stopped and when it ends): it left already.
    if (!this.waiting.has(turnId) && !this.holding.has(turnId) && !this.joining.has(turnId)) return;
    this.waiting.get(turnId)?.admit(null);
    this.waiting.delete(turnId);
    this.joining.delete(turnId);
    this.holding.delete(turnId);
    this.leaving.add(turnId);
    void this.look();
  }

  /** Once what was asked of the table so far has landed (a process stopping waits for its turns' leaving). */
  async settled(): Promise<void> {
    while (this.looking) await this.looking;
  }

  get waitingHere(): number {
    return this.waiting.size;
  }

  /** No new turns come; the queue goes quiet once this process's turns have left it. */
  close() {
    this.closed = true;
    if (!this.waiting.size && !this.holding.size && !this.looking) this.stop();
  }

  private stop() {
    clearInterval(this.renewals);
    if (this.retry) clearTimeout(this.retry);
    this.unlisten();
  }

  /** Looks at the table, one look at a time; asked again meanwhile, it looks once more after. */
  private look(): Promise<void> {
    this.lookAgain = true;
    this.looking ??= this.lookWhileAsked();
    return this.looking;
  }

  private async lookWhileAsked() {
    try {
      // No await between the last check and the end: a look asked for is never missed.
      while (this.lookAgain) {
        this.lookAgain = false;
        await this.lookOnce();
      }
    } finally {
      this.looking = null;
      if (this.closed && !this.waiting.size && !this.holding.size) this.stop();
    }
  }

  private async lookOnce() {
    const join = [...this.joining.values()];
    const leave = [...this.leaving];
    this.joining.clear();
    this.leaving.clear();
    const now = this.now();
    let result: Awaited<ReturnType<QueueStore['settleModelQueue']>>;
    try {
      result = await this.shared.store.settleModelQueue({
        process: this.shared.signals.process,
        now,
        until: now + this.shared.leaseMs,
        join,
        leave,
        decide: this.rules.decide,
      });
    } catch (err) {
      // Asked again at the next renewal: what was to join or leave still is.
      for (const entry of join)
        if (this.waiting.has(entry.turnId) && !this.joining.has(entry.turnId)) this.joining.set(entry.turnId, entry);
      for (const turnId of leave) if (!this.waiting.has(turnId)) this.leaving.add(turnId);
      this.rules.log?.(`could not reach the model servers' shared queue: ${(err as Error).message}`);
      // Again shortly, while a turn waits for it or a slot is still to be given back.
      if (!this.retry && (this.waiting.size || this.leaving.size))
        this.retry = setTimeout(() => {
          this.retry = null;
          void this.look();
        }, RETRY_MS);
      return;
    }
    const { rows } = result;
    this.rules.saw(rows);
    const mine = new Map(rows.filter((r) => r.process === this.shared.signals.process).map((r) => [r.turnId, r]));
    for (const [turnId, w] of this.waiting) {
      const row = mine.get(turnId);
      if (this.joining.has(turnId)) continue;
      if (!row) {
        // Its row lapsed (this process was stalled for a whole lease): it joins again, at the back.
        this.joining.set(turnId, w.entry);
        this.lookAgain = true;
        continue;
      }
      if (row.refused) {
        this.waiting.delete(turnId);
        this.leaving.add(turnId);
        w.admit(null);
      } else if (row.serverUrl !== null && row.slot !== null) {
        this.waiting.delete(turnId);
        this.holding.add(turnId);
        w.admit({ url: row.serverUrl, slot: row.slot });
      }
    }
    servingOrder(rows).forEach((row, i) => {
      const w = this.waiting.get(row.turnId);
      if (!w || w.position === i + 1) return;
      w.position = i + 1;
      w.notify(i + 1);
    });
    if (result.changed) this.shared.signals.send({ kind: 'slots', library: HEARTH_WIDE });
    if (this.leaving.size) this.lookAgain = true;
  }
}
