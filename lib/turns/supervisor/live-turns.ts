import { HearthError } from '@/lib/shared/errors';
import type { TurnEvent, TurnStage } from '@/lib/contract/events';

/**
 * The turns running in this process, by id: what the supervisor asks to tell a busy thread,
 * to stop a turn or every turn of a thread, and to wait until none runs. Nothing here is
 * stored: the turns' rows and events are the event log's (event-log.ts).
 */

export type StreamedEvent = TurnEvent & { seq: number };
export type Listener = { event: (event: StreamedEvent) => void; end: () => void };

export type LiveTurn = {
  turnId: string;
  threadId: string;
  seq: number;
  abort: AbortController;
  listeners: Set<Listener>;
  finished: boolean;
  draft: string;
  /** The partial answer stored before a restart: kept if the resumed turn ends without a better one. */
  resumedFrom?: string;
  lastSaved: number;
  pendingCalls: Map<string, { name: string; arguments: string }>;
  /** The stage the turn is at (the last status but loading), and how many of its calls wait for a cold model. */
  stage?: TurnStage;
  loadingCalls: number;
  /** Its thread was deleted: nothing of it is stored any more; listeners still hear how it ended. */
  gone?: boolean;
  /** Hearth is stopping: the turn was stored as interrupted already; its late ending stores nothing. */
  stopped?: boolean;
  /** Another process goes on with it (cluster.ts): its ending here stores and counts nothing. */
  handedOver?: boolean;
  /** This process holds the turn's lease (several processes: cluster.ts), so it renews it. */
  claimed?: boolean;
  /** Its ending is being stored: it is not handed over or let go half-way through that. */
  finishing?: boolean;
  /** The run under way (runner.ts), for a hand-over to wait until it has stopped writing. */
  running?: Promise<void>;
  /** The turn's events stored and heard so far, one after another (event-log.ts). */
  written: Promise<void>;
};

/** A stop asked by the user: a cancelled turn's words are the ending's own, never this reason's. */
const stopped = () => new HearthError('cancelled', 'Stopped.');

export class LiveTurns {
  private readonly turns = new Map<string, LiveTurn>();

  /** A turn starts (or resumes after a restart, its events numbered on from `seq`). */
  track(turnId: string, threadId: string, seq: number): LiveTurn {
    const live: LiveTurn = {
      turnId,
      threadId,
      seq,
      abort: new AbortController(),
      listeners: new Set(),
      finished: false,
      draft: '',
      lastSaved: 0,
      pendingCalls: new Map(),
      loadingCalls: 0,
      written: Promise.resolve(),
    };
    this.turns.set(turnId, live);
    return live;
  }

  get(turnId: string): LiveTurn | undefined {
    return this.turns.get(turnId);
  }

  has(turnId: string): boolean {
    return this.turns.has(turnId);
  }

  /** Running or waiting, not yet over. */
  isLive(turnId: string): boolean {
    const t = this.turns.get(turnId);
    return Boolean(t && !t.finished);
  }

  /** Whether a turn of this thread runs here (the store knows those of earlier processes). */
  threadBusy(threadId: string): boolean {
    return [...this.turns.values()].some((t) => t.threadId === threadId && !t.finished);
  }

  /** The turns not yet over, for stopping them all. */
  unfinished(): LiveTurn[] {
    return [...this.turns.values()].filter((t) => !t.finished);
  }

  /** Stops a running or queued turn at once. */
  cancel(turnId: string): boolean {
    const live = this.turns.get(turnId);
    if (!live || live.finished) return false;
    live.abort.abort(stopped());
    return true;
  }

  /**
   * Another process goes on with the turn: it stops here at once, and from now on stores, emits
   * and counts nothing (event-log.ts and runner.ts check `handedOver`).
   */
  handOver(live: LiveTurn) {
    live.stopped = true;
    live.handedOver = true;
    live.abort.abort(new HearthError('cancelled', 'Handed over.'));
  }

  /** Stops every turn of a thread (they end cancelled, their partial answers kept). */
  cancelThread(threadId: string) {
    for (const t of this.turns.values()) if (t.threadId === threadId) t.abort.abort(stopped());
  }

  /** Stops every turn of a thread about to be deleted: nothing more of them is stored (their rows go with the thread). */
  forgetThread(threadId: string) {
    for (const t of this.turns.values()) if (t.threadId === threadId) t.gone = true;
    this.cancelThread(threadId);
  }

  /** The turn is over: its listeners hear the end, and it is no longer live. */
  release(live: LiveTurn) {
    live.finished = true;
    for (const l of live.listeners) {
      try {
        l.end();
      } catch {
        // A listener that fails as it ends (a closed stream) is not the turn failing to end.
      }
    }
    live.listeners.clear();
    this.turns.delete(live.turnId);
  }

  /** Forgets a turn whose ending could not be stored (its listeners were told already). */
  drop(turnId: string) {
    this.turns.delete(turnId);
  }

  /** Waits until no turn is running (tests and shutdown). */
  async idle(): Promise<void> {
    while ([...this.turns.values()].some((t) => !t.finished)) await new Promise((r) => setImmediate(r));
  }
}
