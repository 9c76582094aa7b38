import { HEARTH_WIDE, RENEWALS_PER_LEASE, type Signals } from '@/lib/contract/cluster-signals';
import type { QueueEntry, QueueGrant, QueueRow, QueueStore } from '@/lib/contract/model-queue';

/**
 * The model servers' slot queue shared by several Hearth processes on one database. One
 * llama-server has one to four slots; two processes each queueing for all of them would send
 * it up to twice as many turns as it can run, and the place a page shows and the fairness
 * between people would hold within one process only. So every waiting and running turn of
 * every process is a row of one table (lib/contract/model-queue.ts, db/queries/model-queue.ts),
 * in one line, and each look at it is one transaction that no other look runs beside (an
 * advisory lock on PostgreSQL), so two looks never grant the same slot.
 *
 * - A turn joins the line where the in-memory queue would put it (`lineUp`): round-robin by
 *   person, so someone with nothing running goes before another's second and third turns.
 * - A queue grants slots only to its own turns, by its pool's rules (pool.ts) and the servers
 *   it knows; the others' turns ahead of them in line hold their places. A change is said with
 *   a `slots` signal (and to the other pools of this process), and queues with turns waiting
 *   look again.
 * - A queue renews its rows as turns' leases are renewed; a process that dies holds its slots
 *   until its rows lapse (one lease), then they are free again. One stalled that long has had
 *   its turns taken over as well (lib/turns/supervisor/cluster.ts).
 *
 * The costs: one look when a turn enters, one when it leaves, one by each queue with turns
 * waiting that heard of it, and one every third of a lease while a queue has turns in it
 * (npm run bench measures a turn's way in and a slot passing between processes).
 */

/** How soon a look that failed is made again. */
const RETRY_MS = 500;

export type SharedSlots = { store: QueueStore; signals: Signals; leaseMs: number; now?: () => number };

/** Where a granted turn runs. */
export type Grant = { url: string; slot: number };

/** The order waiting turns are served in: turns moving away from a server that failed first (they had a slot), then the line. */
export function servingOrder(rows: readonly QueueRow[]): QueueRow[] {
  const waiting = rows.filter((r) => r.serverUrl === null && !r.refused).sort((a, b) => a.seq - b.seq);
  return [...waiting.filter((r) => r.avoidUrl !== null), ...waiting.filter((r) => r.avoidUrl === null)];
}

/**
 * Where a turn joins the line: before the waiting turn named, or at the back (null). As the
 * in-memory queue has it (pool.ts fairPlace): after every waiting turn of its round or an
 * earlier one, a turn's round being how many turns of its person hold a slot or wait ahead of
 * it. Turns of no one (background callers), and turns moving off a failed server (they go
 * first anyway), join at the back.
 */
export function lineUp(rows: readonly QueueRow[], entry: QueueEntry): string | null {
  if (entry.person === null || entry.avoidUrl !== null) return null;
  const ahead = new Map<string, number>();
  const count = (person: string) => ahead.set(person, (ahead.get(person) ?? 0) + 1);
  for (const r of rows) if (r.serverUrl !== null && !r.refused && r.person !== null) count(r.person);
  const line = servingOrder(rows);
  for (const r of line) if (r.avoidUrl !== null && r.person !== null) count(r.person);
  const mine = (ahead.get(entry.person) ?? 0) + line.filter((r) => r.avoidUrl === null && r.person === entry.person).length;
  for (const r of line) {
    if (r.avoidUrl !== null || r.person === null) continue;
    const round = ahead.get(r.person) ?? 0;
    ahead.set(r.person, round + 1);
    if (round > mine) return r.turnId;
  }
  return null;
}

type Waiting = {
  entry: QueueEntry;
  admit: (grant: Grant | null) => void;
  notify: (position: number) => void;
  /** The place it last heard: a look that leaves it where it was says nothing. */
  position?: number;
};

/** The queues of each process (one per model pool, by its signals): a change in one is heard by the others at once. */
const queuesOf = new WeakMap<Signals, Set<SharedQueue>>();
let made = 0;

/**
 * One pool's side of the shared queue: its waiting turns, its looks at the table, its
 * renewals. `decide` grants slots to this queue's own rows; `saw` hears every row after each
 * look (the pool counts its servers' busy slots from them).
 */
export class SharedQueue {
  /** This queue's name on its rows: the process, and which of its pools (a settings change makes a new one). */
  readonly owner: string;
  private readonly waiting = new Map<string, Waiting>();
  private readonly joining = new Map<string, QueueEntry>();
  private readonly leaving = new Set<string>();
  /** Turns of this queue holding a slot now. */
  private readonly holding = new Set<string>();
  private looking: Promise<void> | null = null;
  private lookAgain = false;
  /** The next look after one that failed (the database could not be reached). */
  private retry: NodeJS.Timeout | null = null;
  private renewals: NodeJS.Timeout | null = null;
  private unlisten: (() => void) | null = null;
  private closed = false;
  private readonly now: () => number;

  constructor(
    private readonly shared: SharedSlots,
    private readonly rules: {
      decide: (rows: readonly QueueRow[], owner: string) => QueueGrant[];
      saw: (rows: readonly QueueRow[]) => void;
      log?: (message: string) => void;
    },
  ) {
    const local = shared.now ?? Date.now;
    // Rows' leases are in the database's time, so machines whose clocks disagree agree on them.
    this.now = () => local() + shared.signals.clockOffsetMs();
    this.owner = `${shared.signals.process}#${++made}`;
    this.start();
  }

  /** Listens and renews (again, for a turn that enters a pool already replaced by a settings change). */
  private start() {
    if (this.renewals) return;
    const siblings = queuesOf.get(this.shared.signals) ?? new Set();
    queuesOf.set(this.shared.signals, siblings);
    siblings.add(this);
    // Another process's turn left or was placed: this queue's waiting turns may have a slot now.
    const stopListening = this.shared.signals.listen(HEARTH_WIDE, (signal) => {
      if (signal.kind === 'slots' || signal.kind === 'resync') this.heard();
    });
    this.unlisten = () => {
      stopListening();
      siblings.delete(this);
    };
    // Rows are renewed while this queue has turns in it; a look also drops the rows of
    // processes that died, so turns waiting here get their slots.
    this.renewals = setInterval(() => {
      if (this.waiting.size || this.holding.size) void this.look();
    }, this.shared.leaseMs / RENEWALS_PER_LEASE);
    this.renewals.unref();
  }

  private stop() {
    if (this.renewals) clearInterval(this.renewals);
    this.renewals = null;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.unlisten?.();
    this.unlisten = null;
  }

  /** The line changed elsewhere: look, if a turn here waits for a slot. */
  private heard() {
    if (this.waiting.size) void this.look();
  }

  /** Queues a turn; resolves with its slot, or null when no server can take it or it left first. */
  enter(entry: QueueEntry, notify: (position: number) => void): Promise<Grant | null> {
    this.start();
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

  /** The line as it is now: a look (the health report asks, so its busy slots count every process's turns). */
  refresh(): Promise<void> {
    return this.look();
  }

  /**
   * Once what was asked of the table so far has landed (a process stopping waits for its
   * turns' leaving): a look waiting to be tried again after a failure is tried now, once.
   */
  async settled(): Promise<void> {
    if (this.retry) {
      clearTimeout(this.retry);
      this.retry = null;
      void this.look();
    }
    while (this.looking) await this.looking;
  }

  get waitingHere(): number {
    return this.waiting.size;
  }

  /** No new turns are expected; the queue goes quiet once its turns have left it (a late one wakes it). */
  close() {
    this.closed = true;
    this.quietIfDone();
  }

  private quietIfDone() {
    if (this.closed && !this.waiting.size && !this.holding.size && !this.leaving.size && !this.looking) this.stop();
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
      this.quietIfDone();
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
        process: this.owner,
        now,
        until: now + this.shared.leaseMs,
        join,
        leave,
        lineUp,
        decide: (rows) => this.rules.decide(rows, this.owner),
      });
    } catch (err) {
      // Asked again shortly: what was to join or leave still is.
      for (const entry of join)
        if (this.waiting.has(entry.turnId) && !this.joining.has(entry.turnId)) this.joining.set(entry.turnId, entry);
      for (const turnId of leave) if (!this.waiting.has(turnId)) this.leaving.add(turnId);
      this.rules.log?.(`could not reach the model servers' shared queue: ${(err as Error).message}`);
      if (!this.retry && (this.waiting.size || this.leaving.size))
        this.retry = setTimeout(() => {
          this.retry = null;
          void this.look();
        }, RETRY_MS);
      return;
    }
    const { rows } = result;
    this.rules.saw(rows);
    const mine = new Map(rows.filter((r) => r.process === this.owner).map((r) => [r.turnId, r]));
    for (const [turnId, w] of this.waiting) {
      if (this.joining.has(turnId)) continue;
      const row = mine.get(turnId);
      if (!row) {
        // Its row lapsed (this process was stalled for a whole lease): it joins again.
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
    if (result.changed) {
      this.shared.signals.send({ kind: 'slots', library: HEARTH_WIDE });
      // The other pools of this process (signals never come back to their sender).
      for (const sibling of queuesOf.get(this.shared.signals) ?? []) if (sibling !== this) sibling.heard();
    }
    if (this.leaving.size) this.lookAgain = true;
  }
}
