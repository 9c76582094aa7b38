import type { ApprovalAnswer } from '@/lib/turns/engine/turn-io';
import type { Awaitable, Port } from '@/lib/shared/awaitable';
import { HearthError } from '@/lib/shared/errors';
import { Approvals } from './approvals';
import { storeQuestion, storeRegeneration, type BeginStore, type BegunTurn } from '@/lib/turns/conversation/writes';
import { TurnEventLog, type EventLogStore } from './event-log';
import { LiveTurns, type Listener, type StreamedEvent } from './live-turns';
import { TurnRunner, type RunIds, type RunnerOptions, type RunnerStore } from './runner';

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
export type TurnStore = BeginStore &
  EventLogStore &
  RunnerStore &
  Port<{
    getTurn(args: {
      id: string;
    }): { id: string; threadId: string; status: string; userMessageId: string; assistantMessageId: string | null } | undefined;
    activeTurnOf(args: { threadId: string }): { id: string } | undefined;
    unfinishedTurns(): { id: string; threadId: string; userMessageId: string; assistantMessageId: string | null }[];
    lastEventSeq(args: { turnId: string }): number;
    stepsOf(args: { turnId: string }): RunIds['steps'];
  }>;

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
};

export class TurnSupervisor {
  private readonly live = new LiveTurns();
  private readonly events: TurnEventLog;
  private readonly approvals: Approvals;
  private readonly runner: TurnRunner;
  private readonly store: TurnStore;
  private readonly now: () => number;

  constructor(private readonly options: RegistryOptions) {
    this.store = options.store;
    this.now = options.now ?? Date.now;
    this.events = new TurnEventLog(this.store, this.live, this.now, options.log);
    this.approvals = new Approvals({ timeoutMs: options.approvalTimeoutMs, allowAlways: options.allowAlways });
    this.runner = new TurnRunner(this.store, { live: this.live, events: this.events, approvals: this.approvals, now: this.now }, options);
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
    return this.begin(await storeQuestion(this.store, (id) => this.requireIdle(id), this.now(), question));
  }

  /**
   * A new answer to the question an answer replied to, kept beside the old one (which stays
   * reachable). `messageId` is that answer (or the question itself, when its answer is gone).
   */
  async regenerate(request: { threadId: string; messageId: string; model?: string }) {
    await this.options.admit?.(this.live.unfinished().length);
    return this.begin(await storeRegeneration(this.store, (id) => this.requireIdle(id), this.now(), request));
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
    void this.runner.run(live, { userMessageId, assistantMessageId, steps: [] });
    return { turnId, userMessageId, assistantMessageId };
  }

  /**
   * The user's answer to a call waiting in this thread: allow once, always allow the tool, or
   * deny. False when no call of the thread is waiting under that id (answered already, or gone).
   */
  answerApproval(args: { threadId: string; callId: string; answer: ApprovalAnswer }): boolean {
    return this.approvals.answer(args);
  }

  /** Resolves when no background work (a title) is under way: tests wait on this, never on time. */
  backgroundIdle(): Promise<void> {
    return this.options.titles?.idle() ?? Promise.resolve();
  }

  /** Replays the stored events after `after`, then follows live ones (event-log.ts). */
  subscribe(turnId: string, after: number, listener: Listener): Promise<{ live: boolean; unsubscribe: () => void }> {
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
  cancel(turnId: string): boolean {
    return this.live.cancel(turnId);
  }

  /** Stops every turn of a thread (they end cancelled, their partial answers kept). */
  cancelThread(threadId: string) {
    this.live.cancelThread(threadId);
  }

  /** Stops every turn of a thread about to be deleted: nothing more of them is stored (their rows go with the thread). */
  forgetThread(threadId: string) {
    this.live.forgetThread(threadId);
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
    const { store } = this;
    const resumed: string[] = [];
    const interrupted: string[] = [];
    for (const turn of await store.unfinishedTurns()) {
      if (this.live.has(turn.id)) continue;
      const assistant = turn.assistantMessageId ? await store.getMessage({ id: turn.assistantMessageId }) : undefined;
      const user = await store.getMessage({ id: turn.userMessageId });
      if (!assistant || !user) {
        if (turn.assistantMessageId) await store.updateMessage({ id: turn.assistantMessageId, status: 'interrupted' });
        await store.setTurnStatus({ id: turn.id, status: 'interrupted', now: this.now() });
        interrupted.push(turn.id);
        continue;
      }
      const live = this.live.track(turn.id, turn.threadId, await store.lastEventSeq({ turnId: turn.id }));
      // The answer starts again from the model's next words: the page clears what it showed
      // on "resumed", so the text from before the restart is never shown twice.
      live.resumedFrom = assistant.content;
      this.events.emit(live, { type: 'status', stage: 'resumed' });
      void this.runner.run(live, {
        userMessageId: user.id,
        assistantMessageId: assistant.id,
        steps: await store.stepsOf({ turnId: turn.id }),
      });
      resumed.push(turn.id);
    }
    return { resumed, interrupted };
  }

  /** Waits until no turn is running (tests and shutdown). */
  idle(): Promise<void> {
    return this.live.idle();
  }
}
