/**
 * The model servers' slot queue shared by several Hearth processes on one database
 * (lib/models/shared-queue.ts says why and how): its rows as the store keeps them
 * (db/queries/model-queue.ts), and the one call the queue makes of the store.
 */

/** A turn waiting for a conversation slot, or holding one. */
export type QueueRow = {
  turnId: string;
  /** The queue it waits or runs in (one per model pool of a process): only that one renews, grants or removes it. */
  process: string;
  threadId: string;
  /** Whose turn it is (turns are lined up round-robin by person); null: no one's. */
  person: string | null;
  /** The model it asks for; null: the servers' own. */
  model: string | null;
  /** Moving away from a server that failed: it waits first, for any server but this one. */
  avoidUrl: string | null;
  /** Its place in line: waiting turns are served in this order (turns moving off a failed server first). */
  seq: number;
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

/** What the queue asks of the store. */
export type QueueStore = {
  /**
   * One look at the queue, alone (of two processes looking at once, one waits for the other's
   * to end): the queue's own rows are renewed until `until`; rows whose queue stopped renewing
   * them go; its `leave` go; `join` enter where `lineUp` says, before the waiting turn it names
   * or at the back (a turn taken over from another process replaces that one's row). Then
   * `decide` grants slots to the queue's own waiting turns, and what it granted is stored.
   * `lineUp` and `decide` only compute (they run inside the transaction). Returns every row
   * after, in line order, and whether anything changed that other queues should look again for.
   */
  settleModelQueue(args: {
    process: string;
    now: number;
    until: number;
    join?: readonly QueueEntry[];
    leave?: readonly string[];
    lineUp: (rows: readonly QueueRow[], entry: QueueEntry) => string | null;
    decide: (rows: readonly QueueRow[]) => QueueGrant[];
  }): Promise<{ rows: QueueRow[]; changed: boolean }>;
};
