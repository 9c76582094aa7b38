import { z } from 'zod';

/**
 * What several Hearth processes on one database tell each other (lib/turns/supervisor/cluster.ts
 * says why): the signals, checked as they arrive, since anyone who may connect to the database
 * may send on its channel; and the port that carries them (db/pg/signals.ts on PostgreSQL).
 */

const approvalAnswer = z.enum(['allow', 'always', 'deny']);

/** A lease (a turn's, a slot queue row's) is renewed this many times in its life, so one late renewal does not lose it. */
export const RENEWALS_PER_LEASE = 3;

/** The "library" of signals about the whole Hearth, not one library's turns (the model servers' shared queue). */
export const HEARTH_WIDE = '';

/** Every signal names its library (the schema of the person whose turn or notice it is). */
export const clusterSignal = z.discriminatedUnion('kind', [
  /** Events of the turn up to `seq` are stored. */
  z.object({ kind: z.literal('event'), library: z.string(), turnId: z.string(), seq: z.number().int() }),
  /** Stop this turn (sent by the process a page asked, to the one running it). */
  z.object({ kind: z.literal('cancel'), library: z.string(), turnId: z.string() }),
  /** Stop every turn of the thread; `forget`: it is being deleted, so store nothing more of them. */
  z.object({ kind: z.literal('cancel-thread'), library: z.string(), threadId: z.string(), forget: z.boolean() }),
  /** The user answered a call waiting for approval. */
  z.object({ kind: z.literal('approval'), library: z.string(), threadId: z.string(), callId: z.string(), answer: approvalAnswer }),
  /** A process gave its turns up (it is stopping): the others take them over now, not when the leases lapse. */
  z.object({ kind: z.literal('handover'), library: z.string() }),
  /** The library's change feed (lib/services/change-feed.ts): a notice for the pages open on other processes. */
  z.object({
    kind: z.literal('change'),
    library: z.string(),
    notice: z.discriminatedUnion('type', [
      z.object({ type: z.literal('memories') }),
      z.object({ type: z.literal('thread'), id: z.string(), title: z.string() }),
      z.object({ type: z.literal('library') }),
    ]),
  }),
  /** The library's settings changed (lib/services/settings.ts): read them again. */
  z.object({ kind: z.literal('settings'), library: z.string() }),
  /** The model servers' shared queue changed (lib/models/shared-queue.ts): turns waiting for a slot look again. */
  z.object({ kind: z.literal('slots'), library: z.literal(HEARTH_WIDE) }),
  /** The link to the other processes was lost and is back: what was announced meanwhile is read again. */
  z.object({ kind: z.literal('resync'), library: z.string() }),
]);
export type ClusterSignal = z.infer<typeof clusterSignal>;

/** How processes reach each other (db/pg/signals.ts). */
export type Signals = {
  /** This process, as its leases name it. */
  readonly process: string;
  /** Sends a signal to every other process; in order, never awaited by the sender's turn. */
  send(signal: ClusterSignal): void;
  /** Hears the signals of one library sent by other processes (and `resync`); returns how to stop. */
  listen(library: string, handler: (signal: ClusterSignal) => void): () => void;
  /**
   * The Hearth processes connected to the database now, this one among them: a turn leased to
   * one not among them is taken over at once (its process died), without waiting for its lease to lapse.
   */
  livingProcesses(): Promise<string[]>;
  /**
   * How far the database's clock is ahead of this process's (negative: behind), in ms. Leases
   * are written and compared in the database's time, so processes on machines whose clocks
   * disagree still agree on when a lease lapses; clocks within CLOCKS_AGREE_WITHIN_MS count as one.
   */
  clockOffsetMs(): number;
  close(): Promise<void>;
};

/** Clocks closer than this are taken as agreeing (NTP keeps machines far closer; leases last seconds). */
export const CLOCKS_AGREE_WITHIN_MS = 250;

/** One reading of the database's clock: this process's clock when it asked and when the answer came, and the database's. */
export type ClockReading = { asked: number; database: number; answered: number };

/**
 * The database's clock against this process's, from readings: the one with the shortest round
 * trip is the surest (the database read its clock somewhere within it, most likely midway).
 */
export function clockOffsetFrom(readings: readonly ClockReading[]): number {
  const surest = [...readings].sort((a, b) => a.answered - a.asked - (b.answered - b.asked))[0];
  if (!surest) return 0;
  const offset = Math.round(surest.database - (surest.asked + surest.answered) / 2);
  return Math.abs(offset) < CLOCKS_AGREE_WITHIN_MS ? 0 : offset;
}
