import { historyCharsFor } from '@/lib/turns/context/standard';
import { asStorageFull, HearthError, isHearthError } from '@/lib/shared/errors';
import { EMPTY_STATS } from '@/lib/contract/events';
import { StepJournal, type StoredStep } from '@/lib/turns/engine/step-journal';
import { runTurn, type EngineConfig, type TurnOutcome } from '@/lib/turns/engine/turn';
import type { Lease, ModelPool } from '@/lib/models/pool';
import type { ThinkingMode } from '@/lib/models/thinking';
import type { ToolSet } from '@/lib/tools/toolset';
import type { Approvals } from './approvals';
import type { TurnEventLog } from './event-log';
import type { LiveTurn, LiveTurns } from './live-turns';
import type { BackgroundTitles } from './titles';
import { assembleContext, type ContextRequest, type ContextStore, type TurnIdentity } from './turn-context';
import type { MessageStatus, TurnStatus } from '@/lib/contract/statuses';
import type { Awaitable, Port } from '@/lib/shared/awaitable';

/**
 * Running a turn that was begun (or resumed): a slot from the model pool, the context, the
 * engine, then the ending stored. Whatever features a turn has reach it through the context
 * (turn-context.ts) and the engine's steps, not through here.
 */

/** What running a turn reads and writes besides its context and events (db/store.ts provides it). */
export type RunnerStore = ContextStore &
  Port<{
    getMessage(args: { id: string }): { id: string; content: string; model?: string | null } | undefined;
    /** The model that writes (and wrote) an answer. */
    setMessageModel(args: { id: string; model: string | null }): void;
    updateMessage(args: { id: string; content?: string; status?: MessageStatus; errorCode?: string | null }): void;
    setContextBlock(args: { id: string; contextBlock: string | null }): void;
    setTurnStatus(args: { id: string; status: TurnStatus; stats?: Record<string, unknown>; now?: number }): void;
    appendStep(args: { turnId: string; seq: number; kind: string; data: unknown; now: number }): void;
    touchThread(args: { id: string; now: number }): void;
  }>;

export type RunnerOptions = {
  /** The model servers and the queue in front of their slots (asked per turn: the Settings page may change them). */
  models: () => ModelPool;
  tools: () => ToolSet;
  /** Who the assistant is, who and where the user is: read at the start of each turn (the Settings page may change them). */
  identity: () => TurnIdentity;
  engine?: () => Awaitable<Partial<EngineConfig>>;
  /** Upper bound on history sent to the model, in characters (from the model's context size). */
  historyChars?: number;
  /** Writes thread titles in the background after a first exchange (off: titles stay the first words). */
  titles?: BackgroundTitles;
  /** Thinking as the Settings page asks it (read at the start of each turn). */
  thinking?: () => { mode: ThinkingMode; inHistory: boolean };
  /** A stored image as a data URL, for a server that sees images (the runtime reads it from DATA_DIR). */
  imageData?: (file: { sha256: string; mime: string }) => string | undefined;
  /** An attached file's table, read into one the first time a turn needs it (lib/data/tables/attached.ts). */
  tableOf?: ContextRequest['tableOf'];
  /** Whose turns these are: the pool serves turns waiting for a slot round-robin by person. */
  person?: string;
  /** Whether this person may ask for a model (members: those the owner lets them choose); unset: any. */
  mayUse?: (model: string) => boolean;
  /** A thread's knowledge collections, when more than its store's (those others shared with everyone). */
  collections?: ContextRequest['collections'];
  /** An ended turn's figures, by the model that answered (null: none did), for the person's usage. */
  used?: (turn: { model: string | null; stats: TurnOutcome['stats']; now: number }) => Awaitable<unknown>;
  log?: (message: string) => void;
};

/** The question and answer a run is for, and the steps a resumed turn has done already. */
export type RunIds = { userMessageId: string; assistantMessageId: string; steps: StoredStep[] };

/** The context assumed for a server that has not said its own (llama-server's -c 16384, the least docs/models.md suggests). */
const DEFAULT_CONTEXT_TOKENS = 16384;

/** How a turn ends when it fails or is stopped outside the engine (waiting for the model, or before it ran): with the words heard so far. */
function endedOutsideTheEngine(e: HearthError, heard: string): TurnOutcome {
  // only runEngine logs diagnostics; an outcome made here is never read for them
  const diagnostics: string[] = [];
  if (e.code === 'cancelled') return { status: 'cancelled', partial: heard, stats: { ...EMPTY_STATS }, diagnostics };
  return { status: 'error', code: e.code, message: e.message, partial: heard, stats: { ...EMPTY_STATS }, diagnostics };
}

export class TurnRunner {
  constructor(
    private readonly store: RunnerStore,
    private readonly parts: { live: LiveTurns; events: TurnEventLog; approvals: Approvals; now: () => number },
    private readonly options: RunnerOptions,
  ) {}

  async run(live: LiveTurn, ids: RunIds) {
    const { store } = this;
    const { events } = this.parts;
    // The pool of this turn's start: if the servers change meanwhile, the turn leaves the pool it entered.
    const models = this.options.models();
    // The answer's own model (a regeneration with another, or a resumed turn's), else the thread's; unset: the default.
    const asked =
      (await store.getMessage({ id: ids.assistantMessageId }))?.model ?? (await store.getThread({ id: live.threadId }))?.model ?? undefined;
    // One this person may not choose (now: the owner may have narrowed the list since) gives way to the default.
    const model = asked && this.options.mayUse && !this.options.mayUse(asked) ? undefined : asked;
    const ticket = models.enter(
      live.turnId,
      live.threadId,
      (position) => events.emit(live, { type: 'status', stage: 'queued', queuePosition: position }),
      { model, onLoading: (name, loading) => this.loading(live, name, loading), person: this.options.person },
    );
    const onAbort = () => models.leave(live.turnId);
    // a signal aborts once
    live.abort.signal.addEventListener('abort', onAbort, { once: true });
    let outcome: TurnOutcome;
    try {
      const lease = await ticket;
      // a cancelled turn's words are finish()'s own, never this reason's
      if (!lease || live.abort.signal.aborted) throw new HearthError('cancelled', 'Stopped.');
      await store.setTurnStatus({ id: live.turnId, status: 'running' });
      if (lease.modelId) await store.setMessageModel({ id: ids.assistantMessageId, model: lease.modelId });
      outcome = await this.runEngine(live, ids, lease);
    } catch (err) {
      outcome = endedOutsideTheEngine(
        isHearthError(err) ? err : new HearthError('internal', (err as Error)?.message ?? String(err)),
        live.draft,
      );
    } finally {
      // leaving the pool again after the turn left it changes nothing
      live.abort.signal.removeEventListener('abort', onAbort);
      models.leave(live.turnId);
    }
    try {
      await this.finish(live, ids.assistantMessageId, outcome);
    } catch (err) {
      this.options.log?.(`turn ${live.turnId}: could not finish cleanly: ${(err as Error).message}`);
      // Listeners still hear how the turn ended, though it could not be stored.
      const e = asStorageFull(err) ?? (isHearthError(err) ? err : new HearthError('internal', 'The turn could not be stored as it ended.'));
      // Finished before the listeners hear it: one that asks at once finds the turn over.
      live.finished = true;
      for (const l of live.listeners) {
        try {
          l.event({ type: 'error', code: e.code, message: e.message, seq: live.seq + 1 });
        } catch {
          // a listener that went away
        }
        l.end();
      }
      this.parts.live.drop(live.turnId);
    }
  }

  /**
   * A cold model behind a router or llama-swap is loading for one of the turn's calls: the stage
   * line says so, with when it began, until the model answers; then it goes back to the stage
   * the turn was at. Calls loading at once (a round and its checks) share one loading stage.
   */
  private loading(live: LiveTurn, model: string, loading: boolean) {
    const { events, now } = this.parts;
    live.loadingCalls += loading ? 1 : -1;
    if (loading && live.loadingCalls === 1) events.emit(live, { type: 'status', stage: 'loading', model, since: now() });
    else if (!loading && live.loadingCalls === 0) events.emit(live, { type: 'status', stage: live.stage ?? 'thinking' });
  }

  private async runEngine(live: LiveTurn, ids: RunIds, lease: Lease): Promise<TurnOutcome> {
    const { store } = this;
    const { events, approvals, now } = this.parts;
    const { context, question, earlierAnswers, thinking, sampling, tools, tables, underAnswer } = await assembleContext({
      store,
      threadId: live.threadId,
      turnId: live.turnId,
      userMessageId: ids.userMessageId,
      lease,
      tools: this.options.tools(),
      identity: this.options.identity(),
      now: now(),
      // The history window fits the context of the server this turn runs on.
      historyChars: this.options.historyChars ?? historyCharsFor(lease.contextSize ?? DEFAULT_CONTEXT_TOKENS),
      imageData: this.options.imageData,
      tableOf: this.options.tableOf,
      thinking: this.options.thinking?.(),
      collections: this.options.collections,
    });
    // A turn stopped or handed over stores no more steps: the one resuming it finds them as they were.
    const steps = new StepJournal(ids.steps, async (step) => {
      if (!live.stopped) await store.appendStep({ turnId: live.turnId, ...step, now: now() });
    });
    const outcome = await runTurn(
      { question, earlierAnswers },
      {
        model: lease.model,
        parallelSideCalls: lease.parallelSideCalls,
        vision: lease.vision,
        thinking,
        sampling,
        awaitApproval: (request, signal) => approvals.wait(live.threadId, request, signal),
        tools: tools.registry,
        toolDeps: tools.deps(live.threadId),
        context,
        steps,
        emit: (event) => events.emit(live, event),
        now,
        signal: live.abort.signal,
        researchAvailable: tools.researchAvailable,
        tables,
        config: await this.options.engine?.(),
      },
    );
    // What the context adds under an answer (before its message and done, so a replay has it too).
    if (outcome.status === 'done') for (const event of underAnswer(outcome.content)) events.emit(live, event);
    // The question as it was sent: later turns send its block again, word for word (none, when
    // nothing bore on it this time, even if an earlier answer to it had one).
    if (!live.stopped) await store.setContextBlock({ id: ids.userMessageId, contextBlock: context.contextNotes });
    for (const d of [...outcome.diagnostics, ...context.diagnostics.map((d) => `${d.layerId}.${d.hook}: ${d.message}`)]) {
      this.options.log?.(`turn ${live.turnId}: ${d}`);
    }
    return outcome;
  }

  /** What the turn used of the model servers, added to its day (never in the way of its ending). */
  private async countUsage(assistantMessageId: string, outcome: TurnOutcome) {
    try {
      const model = (await this.store.getMessage({ id: assistantMessageId }))?.model ?? null;
      await this.options.used?.({ model, stats: outcome.stats, now: this.parts.now() });
    } catch (err) {
      this.options.log?.(`could not count a turn's usage: ${(err as Error).message}`);
    }
  }

  /** The ending stored (the answer, the turn's status and stats), then heard; the log compacted. */
  private async finish(live: LiveTurn, assistantMessageId: string, outcome: TurnOutcome) {
    const { store } = this;
    const { events, now: clock } = this.parts;
    live.finishing = true;
    // Another process goes on with the turn: its ending there is the one counted.
    if (live.handedOver) return;
    // Every ending counts, a stop at shutdown too (such a turn is kept interrupted, never resumed).
    await this.countUsage(assistantMessageId, outcome);
    // Hearth is stopping: stopAll stores this turn as interrupted and ends it.
    if (live.stopped) return;
    if (live.gone) {
      events.emit(live, { type: 'error', code: 'cancelled', message: 'Stopped: the thread was deleted.' });
      return this.release(live);
    }
    // What the turn emitted so far is stored first: no partial save lands over the ending.
    await events.flushed(live);
    const now = clock();
    if (outcome.status === 'done') {
      await store.updateMessage({ id: assistantMessageId, content: outcome.content, status: 'complete', errorCode: null });
      await store.setTurnStatus({ id: live.turnId, status: 'done', stats: outcome.stats, now });
      events.emit(live, { type: 'message', id: assistantMessageId, content: outcome.content });
      events.emit(live, { type: 'done', turnId: live.turnId, stats: outcome.stats });
    } else if (outcome.status === 'cancelled') {
      // The partial answer: the words the client heard since the last draft set aside (the runner's
      // own outcomes pass its draft), else those kept from before a restart.
      await store.updateMessage({
        id: assistantMessageId,
        content: outcome.partial || live.resumedFrom || '',
        status: 'interrupted',
        errorCode: 'cancelled',
      });
      await store.setTurnStatus({ id: live.turnId, status: 'cancelled', stats: outcome.stats, now });
      events.emit(live, { type: 'error', code: 'cancelled', message: 'Stopped. The partial answer was kept.' });
    } else {
      await store.updateMessage({
        id: assistantMessageId,
        content: outcome.partial || live.resumedFrom || '',
        status: 'error',
        errorCode: outcome.code,
      });
      await store.setTurnStatus({ id: live.turnId, status: 'error', stats: outcome.stats, now });
      events.emit(live, {
        type: 'error',
        code: outcome.code,
        message: outcome.message,
        ...(outcome.code === 'budget_exhausted' ? { fuelUsed: outcome.stats.fuelUsed } : {}),
      });
    }
    await store.touchThread({ id: live.threadId, now });
    // Stored, compacted, its title queued, then over: whoever waits for the turn to end (idle(), a
    // test, shutdown) finds it all done.
    await events.flushed(live);
    await events.compact(live.turnId, live.threadId);
    try {
      await this.options.titles?.afterTurn(live.threadId, outcome.status === 'done');
    } catch (err) {
      // The turn is stored as it ended; only its title waits for another turn.
      this.options.log?.(`thread ${live.threadId}: could not queue its title: ${(err as Error).message}`);
    }
    this.parts.live.release(live);
  }

  /** The turn is over once every event it emitted is stored and heard. */
  private async release(live: LiveTurn) {
    await this.parts.events.flushed(live);
    this.parts.live.release(live);
  }
}
