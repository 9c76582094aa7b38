/**
 * The model servers' slot queue shared by several Hearth processes on one database
 * (lib/models/shared-queue.ts says why and how): its rows as the store keeps them
 * (db/queries/model-queue.ts), and the one call the queue makes of the store.
 */

/** A turn waiting for a conversation slot, or holding one. */
export type QueueRow = {
  turnId: string;
  /** The process it waits or runs in (Signals.process): only that process renews or removes it. */
  process: string;
  threadId: string;
  /** Whose turn it is: waiting turns are served round-robin by person; null: no one's. */
  person: string | null;
  /** The model it asks for; null: the servers' own. */
  model: string | null;
  /** Moving away from a server that failed: it waits first, for any server but this one. */
  avoidUrl: string | null;
  /** The order turns came in. */
  seq: number;
  /** How many turns of its person held a slot or waited when it came (NO_ONES_ROUND for no one's). */
  round: number;
  /** Where it runs once granted; null while it waits. */
  serverUrl: string | null;
  slot: number | null;
  /** Granted nowhere: no server can take it (it ends with the reason). */
  refused: boolean;
  /** Its process renews it until then; past it, the process is taken for dead and the row goes. */
  leaseUntil: number;
};

/** A turn entering the queue: what it asks for; where it runs is the queue's to say. */
export type QueueEntry = Pick<QueueRow, 'turnId' | 'threadId' | 'person' | 'model' | 'avoidUrl'>;

/** What a look at the queue grants a waiting turn: a server's slot, or nothing (no server can take it). */
export type QueueGrant = { turnId: string } & ({ serverUrl: string; slot: number } | { refused: true });

/** The round of turns of no one (background callers): after every person's. */
export const NO_ONES_ROUND = 1_000_000;

/** What the queue asks of the store. */
export type QueueStore = {
  /**
   * One look at the queue, alone (of two processes looking at once, one waits for the other's
   * to end): this process's rows are renewed until `until`; rows whose process stopped
   * renewing them go; this process's `leave` go; `join` enter at the back (a turn taken over
   * from another process replaces that process's row). Then `decide` grants slots from every
   * row left, and what it granted is stored. `decide` only computes (it runs inside the
   * transaction). Returns every row after, oldest first, and whether anything changed that
   * other processes should look again for.
   */
  settleModelQueue(args: {
    process: string;
    now: number;
    until: number;
    join?: readonly QueueEntry[];
    leave?: readonly string[];
    decide: (rows: readonly QueueRow[]) => QueueGrant[];
  }): Promise<{ rows: QueueRow[]; changed: boolean }>;
};
