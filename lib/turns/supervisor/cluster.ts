import type { Signals } from '@/lib/contract/cluster-signals';

export { RENEWALS_PER_LEASE, type ClusterSignal, type Signals } from '@/lib/contract/cluster-signals';

/**
 * Several Hearth processes on one database (PostgreSQL): what they tell each other. A turn runs
 * in one process, which holds a lease on its row (db/queries/turns.ts); its events are stored
 * first, as always, and then announced here, carrying the turn and the sequence number, never
 * the payload, so a page connected to any process reads them from the store. Stops, approvals,
 * hand-overs and the change feed's notices travel the same way to whichever process needs them.
 * db/pg/signals.ts carries them with PostgreSQL's LISTEN/NOTIFY; on SQLite one process runs
 * everything and nothing is sent.
 */

/** A supervisor among several processes: how it reaches the others, and its library's name among them. */
export type ClusterOptions = {
  signals: Signals;
  library: string;
  /** How long a lease lasts without renewal: a dead process's turns are taken over this long after its last renewal. */
  leaseMs: number;
};

/** Whether a stored event ends the turn: a page following it from another process stops there. */
export const isEndingEvent = (type: string) => type === 'done' || type === 'error';
