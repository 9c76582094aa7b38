import type { ApprovalAnswer } from '@/lib/turns/engine/turn-io';
import type { Awaitable, Port } from '@/lib/shared/awaitable';
import { HearthError } from '@/lib/shared/errors';
import { isUnfinishedTurn } from '@/lib/contract/statuses';
import { Approvals } from './approvals';
import { storeQuestion, storeRegeneration, type BeginStore, type BegunTurn } from '@/lib/turns/conversation/writes';
import { TurnEventLog, type EventLogStore } from './event-log';
import { LiveTurns, type Listener, type LiveTurn, type StreamedEvent } from './live-turns';
import { TurnRunner, type RunIds, type RunnerOptions, type RunnerStore } from './runner';
import { isEndingEvent, RENEWALS_PER_LEASE, type ClusterOptions, type ClusterSignal } from './cluster';

export { titleFrom } from '@/lib/turns/conversation/writes';
export type { Listener, StreamedEvent } from './live-turns';

/**
 * The turn supervisor: turns run detached from the HTTP request that started them, one per
 * thread at a time, waiting in the model pool's queue for a slot (lib/models/pool.ts). Closing the
 * tab does not stop a turn; cancel does. The work is in parts (docs/turn.md):
 * - begin.ts stores a question or a regeneration, one transaction each;
 * - event-log.ts stores every event before anyone hears it, saves partial answers, replays
 *   the backlog to a client that re-attaches, and compacts a finished turn's log;
 * - approvals.ts holds the tool calls waiting for the user;
 * - runner.ts runs a turn: the pool, the context, the engine, the ending;
 * - live-turns.ts knows which turns run here, to say a thread is busy and to stop them.
 * This class ties them together and supervises: cancel, stop at shutdown, resume at start.
 */

/** What the supervisor needs from the database (db/store.ts provides it): its parts' ports together. */
// Its own port first: where the parts' ports name a call too (getTurn), its answer is the fuller one.
export type TurnStore = Port<{
  getTurn(args: {
    id: string;
  }):
    | { id: string; threadId: string; status: string; userMessageId: string; assistantMessageId: string | null; events?: string | null }
    | undefined;
  activeTurnOf(args: { threadId: string }): { id: string } | undefined;
  unfinishedTurns(): { id: string; threadId: string; userMessageId: string; assistantMessageId: string | null }[];
  lastEventSeq(args: { turnId: string }): number;
  stepsOf(args: { turnId: string }): RunIds['steps'];
  claimTurn(args: { id: string; owner: string; until: number; now: number }): boolean;
  renewLeases(args: { owner: string; ids: string[]; until: number }): string[];
  releaseLeases(args: { owner: string; ids: string[] }): void;
  takeLapsedTurn(args: {
    owner: string;
    until: number;
    now: number;
    unleasedBefore: number;
    living?: string[];
  }): { id: string; threadId: string; userMessageId: string; assistantMessageId: string | null } | undefined;
}> &
  BeginStore &
  EventLogStore &
  RunnerStore;

export type RegistryOptions = RunnerOptions & {
  store: TurnStore;
  now?: () => number;
  /** How long a call waits for the user to allow it before it counts as denied. */
  approvalTimeoutMs?: number;
  /** "Always allow this tool": the tool runs without asking from now on. */
  allowAlways?: (server: string, tool: string) => void;
  /**
   * Before a turn begins: throws (limit_reached) when the person may begin no more today.
   * `running`: their turns begun and not yet over (the ended ones are counted in their usage).
   */
  admit?: (running: number) => Awaitable<void>;
  /** Several processes on one database: how this one reaches the others (cluster.ts). Unset: this process runs every turn. */
  cluster?: ClusterOptions;
};

/** A page following, through this process, a turn another process runs. */
type RemoteFollower = { listener: Listener; last: number; ended: boolean; reading: Promise<void>; forget: () => void };

/** How long a hand-over waits for its turns' runs to stop writing before it gives their leases up anyway. */
const HANDOVER_WAIT_MS = 5000;

/**
 * Nothing more will be stored of this turn: it is gone (its thread deleted), or it ended and its
 * log was compacted, which comes after its last event is stored (an ended turn not yet compacted
 * may still be storing its ending).
 */
const settled = (turn: { status: string; events?: string | null } | undefined) =>
  !turn || (!isUnfinishedTurn(turn.status) && turn.events != null);

export class TurnSupervisor {
  private readonly live = new LiveTurns();
  private readonly events: TurnEventLog;
  private readonly approvals: Approvals;
  private readonly runner: TurnRunner;
  private readonly store: TurnStore;
  private readonly now: () => number;

  private readonly cluster?: ClusterOptions;
  /** Pages following turns that other processes run, by turn. */
  private readonly remote = new Map<string, Set<RemoteFollower>>();
  private readonly stopListening?: () => void;
  private readonly renewals?: ReturnType<typeof setInterval>;
  /** A take-over under way: another waits for it rather than racing it. */
  private takingOver?: Promise<string[]>;
  /** This process handed its turns over and is going: it takes none (back). */
  private leaving = false;
  /** The processes connected at the last look for turns to take over. */
  private lastSeenLiving?: string[];

  constructor(private readonly options: RegistryOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.cluster = options.cluster;
    const cluster = this.cluster;
    this.events = new TurnEventLog(
      this.store,
      this.live,
      this.now,
      options.log,
      cluster &&
        ((turnId, seq) => {
          cluster.signals.send({ kind: 'event', library: cluster.library, turnId, seq });
          // A page here that began following the turn while another process ran it (it was taken over since).
          for (const follower of this.remote.get(turnId) ?? []) void this.pull(turnId, follower);
        }),
    );
    this.approvals = new Approvals({ timeoutMs: options.approvalTimeoutMs, allowAlways: options.allowAlways });
    this.runner = new TurnRunner(this.store, { live: this.live, events: this.events, approvals: this.approvals, now: this.now }, options);
    if (cluster) {
      this.stopListening = cluster.signals.listen(cluster.library, (signal) => this.heard(signal));
      this.renewals = setInterval(() => void this.renewLeases(), cluster.leaseMs / RENEWALS_PER_LEASE);
      this.renewals.unref?.();
    }
  }

  /** Stops hearing the other processes and renewing leases (the library is closing). */
  close() {
    this.stopListening?.();
    if (this.renewals) clearInterval(this.renewals);
  }

  isLive(turnId: string): boolean {
    return this.live.isLive(turnId);
  }

  /**
   * Saves the user message and starts the turn; throws turn_running when the thread is busy.
   * The message follows the branch the thread shows, or, with `editOf`, replaces that earlier
   * question on a new branch beside it (keeping its files; the old branch stays).
   */
  async start(question: { threadId: string; content: string; attachmentIds?: string[]; editOf?: string }) {
    await this.options.admit?.(this.live.unfinished().length);
    return this.begin(await storeQuestion(this.store, (id) => this.requireIdle(id), this.leaseNow(), question));
  }

  /**
   * A new answer to the question an answer replied to, kept beside the old one (which stays
   * reachable). `messageId` is that answer (or the question itself, when its answer is gone).
   */
  async regenerate(request: { threadId: string; messageId: string; model?: string }) {
    await this.options.admit?.(this.live.unfinished().length);
    return this.begin(await storeRegeneration(this.store, (id) => this.requireIdle(id), this.leaseNow(), request));
  }

  /** The thread, when no turn of it is running (inside a transaction). */
  private async requireIdle(threadId: string) {
    const thread = await this.store.getThread({ id: threadId });
    if (!thread) throw new HearthError('not_found', 'There is no thread with that id.');
    if (await this.busy(threadId))
      throw new HearthError('turn_running', 'A reply is still being written in this thread. Wait for it or stop it first.');
    return thread;
  }

  /** Whether a turn of this thread is running or waiting. */
  async busy(threadId: string): Promise<boolean> {
    return this.live.threadBusy(threadId) || Boolean(await this.store.activeTurnOf({ threadId }));
  }

  private begin({ turnId, threadId, userMessageId, assistantMessageId }: BegunTurn) {
    const live = this.live.track(turnId, threadId, 0);
    this.events.emit(live, { type: 'turn', turnId, threadId, userMessageId, assistantMessageId });
    if (this.cluster) void this.claim(live);
    live.running = this.runner.run(live, { userMessageId, assistantMessageId, steps: [] });
    return { turnId, userMessageId, assistantMessageId };
  }

  /**
   * The time leases are written and compared in: the database's, so machines whose clocks
   * disagree agree on them. A new turn is stamped with it too: a turn no process leased yet is
   * taken over a lease after its creation, by that time.
   */
  private leaseNow() {
    return this.now() + (this.cluster?.signals.clockOffsetMs() ?? 0);
  }

  /** This process's lease on a turn it began; one another process took already (it was slow to ask) runs there, not here. */
  private async claim(live: LiveTurn) {
    const cluster = this.cluster!;
    const now = this.leaseNow();
    try {
      const held = await this.store.claimTurn({ id: live.turnId, owner: cluster.signals.process, until: now + cluster.leaseMs, now });
      if (held) live.claimed = true;
      else this.letGo(live, 'another process runs it');
    } catch (err) {
      this.options.log?.(`turn ${live.turnId}: could not take its lease: ${(err as Error).message}`);
    }
  }

  /**
   * Another process runs this turn now (it took the lease over): it stops here at once and stores
   * nothing more, so nothing is written twice; its listeners' streams end, and pages re-attach.
   */
  private letGo(live: LiveTurn, why: string) {
    if (live.finished || live.stopped || live.finishing) return;
    this.options.log?.(`turn ${live.turnId}: no longer run here: ${why}.`);
    this.live.handOver(live);
    void this.events.flushed(live).then(() => this.live.release(live));
  }

  /** Keeps this process's leases on the turns it runs; a turn whose lease another took is let go. */
  private async renewLeases() {
    const cluster = this.cluster!;
    // Only the leases it holds: one whose claim has not landed yet is not "taken by another".
    const running = this.live.unfinished().filter((l) => l.claimed && !l.stopped && !l.gone);
    if (!running.length) return;
    try {
      const held = new Set(
        await this.store.renewLeases({
          owner: cluster.signals.process,
          ids: running.map((l) => l.turnId),
          until: this.leaseNow() + cluster.leaseMs,
        }),
      );
      // Only those that were running before the renewal was asked (one that ended meanwhile holds nothing).
      for (const live of running)
        if (!held.has(live.turnId) && !live.finished) this.letGo(live, 'its lease lapsed and another process took it');
    } catch (err) {
      this.options.log?.(`could not renew the leases of running turns: ${(err as Error).message}`);
    }
  }

  /** What another process says to this library's turns. */
  private heard(signal: ClusterSignal) {
    switch (signal.kind) {
      case 'event':
        for (const follower of this.remote.get(signal.turnId) ?? []) void this.pull(signal.turnId, follower);
        return;
      case 'resync':
        for (const [turnId, followers] of this.remote) for (const follower of followers) void this.pull(turnId, follower);
        return;
      case 'cancel':
        this.live.cancel(signal.turnId);
        return;
      case 'cancel-thread':
        if (signal.forget) this.live.forgetThread(signal.threadId);
        else this.live.cancelThread(signal.threadId);
        return;
      case 'approval':
        this.approvals.answer(signal);
        return;
      case 'handover':
        void this.takeOver();
        return;
    }
  }

  /**
   * A page follows a turn another process runs: the stored events after `after`, then those
   * announced, read from the store, until the turn's ending event. One handed over meanwhile
   * goes on from whichever process took it.
   */
  private async followRemote(turnId: string, after: number, listener: Listener): Promise<{ live: boolean; unsubscribe: () => void }> {
    const followers = this.remote.get(turnId) ?? new Set<RemoteFollower>();
    this.remote.set(turnId, followers);
    const follower: RemoteFollower = {
      listener,
      last: after,
      ended: false,
      reading: Promise.resolve(),
      forget: () => {
        follower.ended = true;
        followers.delete(follower);
        if (!followers.size && this.remote.get(turnId) === followers) this.remote.delete(turnId);
      },
    };
    // Heard from before the log is read: an event announced meanwhile is read with it or after it, never lost.
    followers.add(follower);
    try {
      await this.pull(turnId, follower, { backlog: true });
      // A turn that is over (or never ran anywhere) has nothing more to announce: what is stored is all.
      // (One ending just now may store its ending event after this read: the page, not hearing an ending, attaches again.)
      if (!follower.ended && !isUnfinishedTurn((await this.store.getTurn({ id: turnId }))?.status)) {
        await this.pull(turnId, follower, { backlog: true });
        follower.ended = true;
      }
    } catch (err) {
      follower.forget();
      throw err;
    }
    if (follower.ended) {
      follower.forget();
      return { live: false, unsubscribe: () => undefined };
    }
    return { live: true, unsubscribe: follower.forget };
  }

  /**
   * Reads what the follower has not heard yet, one read after another; its ending event ends it,
   * and so does finding the turn over with no ending stored (its thread deleted, or its ending
   * could not be stored). Only the backlog's read rejects (the request's failure); a later one is logged.
   */
  private pull(turnId: string, follower: RemoteFollower, { backlog = false } = {}): Promise<void> {
    const next = follower.reading.then(async () => {
      if (follower.ended) return;
      let events: StreamedEvent[];
      let over = false;
      try {
        events = await this.events.storedAfter(turnId, follower.last);
        if (!backlog && !events.length) over = settled(await this.store.getTurn({ id: turnId }));
      } catch (err) {
        if (backlog) throw err;
        this.options.log?.(`turn ${turnId}: could not read its events: ${(err as Error).message}`);
        return;
      }
      for (const event of events) {
        if (follower.ended || event.seq <= follower.last) continue;
        follower.last = event.seq;
        try {
          follower.listener.event(event);
        } catch {
          follower.ended = true;
        }
        if (isEndingEvent(event.type)) follower.ended = true;
      }
      if ((follower.ended || over) && !backlog) {
        follower.forget();
        try {
          follower.listener.end();
        } catch {
          // a closed stream
        }
      }
    });
    // The chain goes on after a failed read: the next announcement reads again.
    follower.reading = next.catch(() => undefined);
    return next;
  }

  /**
   * Takes over the turns whose leases lapsed or whose process is gone (it died, or stopped and gave
   * them up), and resumes them from their step journal as after a crash: completed model calls and
   * tool runs are not repeated, and events number on from the last one stored. A process counts as
   * gone once its connection is missing from two looks in a row, a sweep apart (a connection lost
   * for a moment and made again is not a death), or from the one look at start (`atStart`); when
   * this process cannot look (its own connection is down), only lapsed leases count.
   */
  takeOver({ atStart = false } = {}): Promise<string[]> {
    if (!this.cluster || this.leaving) return Promise.resolve([]);
    const cluster = this.cluster;
    this.takingOver ??= (async () => {
      const taken: string[] = [];
      try {
        let living: string[] | undefined;
        try {
          const seen = await cluster.signals.livingProcesses();
          const before = atStart ? seen : this.lastSeenLiving;
          living = before && [...new Set([...seen, ...before])];
          this.lastSeenLiving = seen;
        } catch (err) {
          this.lastSeenLiving = undefined;
          this.options.log?.(`cannot tell which Hearth processes run: ${(err as Error).message}`);
        }
        for (;;) {
          const now = this.leaseNow();
          const turn = await this.store.takeLapsedTurn({
            living,
            owner: cluster.signals.process,
            until: now + cluster.leaseMs,
            now,
            unleasedBefore: now - cluster.leaseMs,
          });
          if (!turn) break;
          if (this.leaving) {
            // Taken as this process began to leave: given up again at once, for another.
            await this.store.releaseLeases({ owner: cluster.signals.process, ids: [turn.id] });
            break;
          }
          if (this.live.has(turn.id)) continue;
          try {
            if (await this.resume(turn)) taken.push(turn.id);
          } catch (err) {
            // Not resumed here: its lease is given up, so another process (or a later look) tries again.
            await Promise.resolve(this.store.releaseLeases({ owner: cluster.signals.process, ids: [turn.id] })).catch(() => undefined);
            throw err;
          }
        }
      } catch (err) {
        this.options.log?.(`could not take over turns: ${(err as Error).message}`);
      } finally {
        this.takingOver = undefined;
      }
      return taken;
    })();
    return this.takingOver;
  }

  /**
   * The user's answer to a call waiting in this thread: allow once, always allow the tool, or
   * deny. False when no call of the thread is waiting under that id (answered already, or gone).
   */
  async answerApproval(args: { threadId: string; callId: string; answer: ApprovalAnswer }): Promise<boolean> {
    if (this.approvals.answer(args)) return true;
    // Its turn may run in another process: the answer goes there, if that turn asked under this
    // id and has no answer yet (its events say so: the page heard the question from them).
    const active = this.cluster && (await this.store.activeTurnOf({ threadId: args.threadId }));
    if (!this.cluster || !active) return false;
    const events = await this.store.eventsAfter({ turnId: active.id, after: 0 });
    // The latest question under this id, and no answer after it (a turn resumed after a crash asks again).
    const last = (type: string) =>
      Math.max(-1, ...events.filter((e) => e.type === type && e.data.callId === args.callId).map((e) => e.seq));
    if (last('approval_needed') <= last('approval')) return false;
    this.cluster.signals.send({ kind: 'approval', library: this.cluster.library, ...args });
    return true;
  }

  /** Resolves when no background work (a title) is under way: tests wait on this, never on time. */
  backgroundIdle(): Promise<void> {
    return this.options.titles?.idle() ?? Promise.resolve();
  }

  /** Replays the stored events after `after`, then follows live ones (event-log.ts). */
  subscribe(turnId: string, after: number, listener: Listener): Promise<{ live: boolean; unsubscribe: () => void }> {
    if (this.cluster && !this.live.has(turnId)) return this.followRemote(turnId, after, listener);
    return this.events.subscribe(turnId, after, listener);
  }

  /** Hears a turn's events from its first until it ends (the scripts and the eval follow a turn so). */
  follow(turnId: string, onEvent: (event: StreamedEvent) => void = () => undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      this.subscribe(turnId, 0, { event: onEvent, end: resolve }).then((sub) => {
        if (!sub.live) resolve();
      }, reject);
    });
  }

  /** Stops a running or queued turn at once. */
  async cancel(turnId: string): Promise<boolean> {
    if (this.live.cancel(turnId)) return true;
    // It may run in another process: the stop goes there, while the turn is unfinished.
    if (!this.cluster || !isUnfinishedTurn((await this.store.getTurn({ id: turnId }))?.status)) return false;
    this.cluster.signals.send({ kind: 'cancel', library: this.cluster.library, turnId });
    return true;
  }

  /** Stops every turn of a thread (they end cancelled, their partial answers kept), in whichever process runs them. */
  cancelThread(threadId: string) {
    this.live.cancelThread(threadId);
    this.cluster?.signals.send({ kind: 'cancel-thread', library: this.cluster.library, threadId, forget: false });
  }

  /** Stops every turn of a thread about to be deleted: nothing more of them is stored (their rows go with the thread). */
  forgetThread(threadId: string) {
    this.live.forgetThread(threadId);
    this.cluster?.signals.send({ kind: 'cancel-thread', library: this.cluster.library, threadId, forget: true });
  }

  /**
   * This process is stopping (SIGTERM) while others run on the same database: its turns are handed
   * over instead of ended. Each stops where it is, storing nothing more (what it emitted so far is
   * stored first), gives its lease up, and the others are told to take it over now; the page
   * following it re-attaches and the turn goes on from its step journal in another process. With
   * no other process running (or on SQLite), the turns are stopped as `stopAll` does.
   */
  async handOver(): Promise<{ handedOver: string[]; stopped: string[] }> {
    const cluster = this.cluster;
    const others = cluster && (await cluster.signals.livingProcesses().catch(() => [])).some((p) => p !== cluster.signals.process);
    if (!cluster || !others) return { handedOver: [], stopped: await this.stopAll() };
    this.leaving = true;
    // One taking turns over now finishes first: what it took is handed over too.
    await this.takingOver;
    const unfinishedHere = this.live.unfinished().filter((live) => !live.gone && !live.stopped);
    // One storing its ending finishes here: handing it over half-way would store it twice.
    const finishing = unfinishedHere.filter((live) => live.finishing);
    const leaving = unfinishedHere.filter((live) => !live.finishing);
    for (const live of leaving) this.live.handOver(live);
    // Each run stops writing before its lease is given up (a step already on its way lands first), a few seconds at most.
    await Promise.race([
      Promise.all(leaving.map((live) => live.running ?? Promise.resolve())),
      new Promise((resolve) => setTimeout(resolve, HANDOVER_WAIT_MS).unref()),
    ]);
    await Promise.all(leaving.map((live) => this.events.flushed(live)));
    const ids = leaving.map((live) => live.turnId);
    try {
      await this.store.releaseLeases({ owner: cluster.signals.process, ids });
    } catch (err) {
      // Their leases lapse on their own: the turns are taken over a lease's time later instead of now.
      this.options.log?.(`could not give up the leases of ${ids.length} turn(s): ${(err as Error).message}`);
    }
    if (ids.length) cluster.signals.send({ kind: 'handover', library: cluster.library });
    for (const live of leaving) this.live.release(live);
    while (finishing.some((live) => !live.finished)) await new Promise((resolve) => setImmediate(resolve));
    return { handedOver: ids, stopped: [] };
  }

  /**
   * Hearth is stopping (Ctrl+C, SIGTERM): every live turn is stored at once as interrupted, with
   * the words heard so far, and stopped. Stored here, not by the turn's own ending, because the
   * process may exit before an aborted model call settles; a stopped turn is not resumed at the
   * next start (only a crash's are), since the person who stopped Hearth asked for its work to stop.
   */
  async stopAll(): Promise<string[]> {
    const { store } = this;
    const stopping = this.live.unfinished().filter((live) => !live.gone && !live.stopped);
    // At once, before anything is awaited: each turn stops where it is, with the words heard so
    // far, and neither it nor its own ending stores anything more.
    const heard = new Map(stopping.map((live) => [live, live.draft || live.resumedFrom || ''] as const));
    for (const live of stopping) {
      live.stopped = true;
      live.abort.abort(new HearthError('cancelled', 'Stopped.'));
    }
    const stopped: string[] = [];
    for (const live of stopping) {
      try {
        // What it emitted before the stop is stored first: no partial save lands over the words kept here.
        await this.events.flushed(live);
        const turn = await store.getTurn({ id: live.turnId });
        if (turn?.assistantMessageId) {
          await store.updateMessage({
            id: turn.assistantMessageId,
            content: heard.get(live),
            status: 'interrupted',
            errorCode: 'cancelled',
          });
        }
        await store.setTurnStatus({ id: live.turnId, status: 'interrupted', now: this.now() });
        this.events.emit(
          live,
          { type: 'error', code: 'cancelled', message: 'Hearth was stopped. The partial answer was kept.' },
          { evenIfStopped: true },
        );
        await this.events.flushed(live);
      } catch (err) {
        this.options.log?.(`turn ${live.turnId}: could not be stored as interrupted: ${(err as Error).message}`);
      }
      this.live.release(live);
      stopped.push(live.turnId);
    }
    return stopped;
  }

  /**
   * At start: turns that were running when the server stopped resume from their step journal
   * (completed model calls and tool runs are not repeated), or are marked interrupted with
   * their partial answer kept when they cannot resume.
   */
  async resumeUnfinished(): Promise<{ resumed: string[]; interrupted: string[] }> {
    const resumed: string[] = [];
    const interrupted: string[] = [];
    // Among several processes only the turns no living process holds are this one's to resume.
    if (this.cluster) return { resumed: await this.takeOver({ atStart: true }), interrupted };
    for (const turn of await this.store.unfinishedTurns()) {
      if (this.live.has(turn.id)) continue;
      if (await this.resume(turn)) resumed.push(turn.id);
      else interrupted.push(turn.id);
    }
    return { resumed, interrupted };
  }

  /** Resumes one unfinished turn here; false when it cannot (its messages are gone) and was stored as interrupted. */
  private async resume(turn: { id: string; threadId: string; userMessageId: string; assistantMessageId: string | null }) {
    const { store } = this;
    const assistant = turn.assistantMessageId ? await store.getMessage({ id: turn.assistantMessageId }) : undefined;
    const user = await store.getMessage({ id: turn.userMessageId });
    if (!assistant || !user) {
      if (turn.assistantMessageId) await store.updateMessage({ id: turn.assistantMessageId, status: 'interrupted' });
      await store.setTurnStatus({ id: turn.id, status: 'interrupted', now: this.now() });
      return false;
    }
    // Read before it is tracked: a read that fails leaves nothing here half begun.
    const seq = await store.lastEventSeq({ turnId: turn.id });
    const steps = await store.stepsOf({ turnId: turn.id });
    const live = this.live.track(turn.id, turn.threadId, seq);
    // Taken over by lease (cluster.ts) or resumed at start by the one process there is.
    live.claimed = true;
    // The answer starts again from the model's next words: the page clears what it showed
    // on "resumed", so the text from before the restart is never shown twice.
    live.resumedFrom = assistant.content;
    this.events.emit(live, { type: 'status', stage: 'resumed' });
    live.running = this.runner.run(live, { userMessageId: user.id, assistantMessageId: assistant.id, steps });
    return true;
  }

  /** Waits until no turn is running (tests and shutdown). */
  idle(): Promise<void> {
    return this.live.idle();
  }
}
