import { randomUUID } from 'node:crypto';
import { historyCharsFor } from '@/lib/context/standard';
import { DECISIONS_LAYER_ID } from '@/lib/decide/history';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { asStorageFull, HearthError, isHearthError } from '@/lib/errors';
import { EMPTY_STATS, type TurnEvent, type TurnStage } from '@/lib/contract/events';
import { StepLedger, type StoredStep } from '@/lib/engine/steps';
import { runTurn, type EngineConfig, type TurnOutcome } from '@/lib/engine/turn';
import type { ApprovalAnswer } from '@/lib/engine/turn-io';
import type { Lease, ModelPool } from '@/lib/llm/pool';
import type { ThinkingMode } from '@/lib/llm/thinking';
import { MessageTree } from '@/lib/threads/tree';
import { factsUsed } from '@/lib/memory/facts';
import { compactEvents, expandEvent, fromStored, toStored, type StoredCompact } from './compact';
import type { BackgroundTitles } from './titles';
import type { ToolSet } from '@/lib/tools/toolset';
import { assembleContext, type ContextRequest, type ContextStore, type TurnIdentity } from './turn-context';

/**
 * Turns run detached from the HTTP request that started them. Every event is written to
 * SQLite before listeners see it, so a client that drops re-attaches with ?after=N and
 * misses nothing; closing the tab does not stop a turn, cancel does. One turn per thread at
 * a time; turns wait in the model pool's queue for a slot (lib/llm/pool.ts).
 */

type MessageStatus = 'streaming' | 'complete' | 'interrupted' | 'error';

/** What the registry needs from the database (db/store.ts provides it). */
export type TurnStore = ContextStore & {
  transaction<T>(fn: () => T): T;
  titleIfUntitled(args: { id: string; title: string }): void;
  touchThread(args: { id: string; now: number }): void;
  insertMessage(row: {
    id: string;
    threadId: string;
    turnId: string | null;
    parentId: string | null;
    role: 'user' | 'assistant';
    content: string;
    status: MessageStatus;
    now: number;
  }): unknown;
  updateMessage(args: { id: string; content?: string; status?: MessageStatus; errorCode?: string | null }): void;
  getMessage(args: { id: string }): { id: string; content: string; model?: string | null } | undefined;
  /** The model that writes (and wrote) an answer. */
  setMessageModel(args: { id: string; model: string | null }): void;
  setCurrentLeaf(args: { threadId: string; leafId: string | null }): void;
  copyAttachments(args: { fromMessageId: string; toMessageId: string; newId: () => string; now: number }): number;
  setContextBlock(args: { id: string; contextBlock: string | null }): void;
  insertTurn(row: { id: string; threadId: string; userMessageId: string; assistantMessageId: string; now: number }): void;
  getTurn(args: {
    id: string;
  }): { id: string; threadId: string; status: string; userMessageId: string; assistantMessageId: string | null } | undefined;
  setTurnStatus(args: {
    id: string;
    status: 'queued' | 'running' | 'done' | 'error' | 'cancelled' | 'interrupted';
    stats?: unknown;
    now?: number;
  }): void;
  activeTurnOf(args: { threadId: string }): { id: string } | undefined;
  unfinishedTurns(): { id: string; threadId: string; userMessageId: string; assistantMessageId: string | null }[];
  appendEvent(args: { turnId: string; seq: number; type: string; data: unknown; now: number }): void;
  storeCompactLog(args: { turnId: string; events: { seq: number; type: string; data: unknown }[] }): void;
  deleteTurnSteps(args: { turnId: string }): void;
  turnFacts(args: { turnId: string; layerId: string }):
    | {
        turnId: string;
        threadId: string;
        userMessageId: string;
        assistantMessageId: string;
        answer: string;
        stats: unknown;
        toolCalls: Map<string, { name: string; arguments: string; ok: boolean; result: unknown; repeat: boolean }>;
        decisions: Map<number, DecisionRecord>;
      }
    | undefined;
  eventsAfter(args: { turnId: string; after: number }): { seq: number; type: string; data: Record<string, unknown> }[];
  lastEventSeq(args: { turnId: string }): number;
  appendStep(args: { turnId: string; seq: number; kind: string; data: unknown; now: number }): void;
  stepsOf(args: { turnId: string }): StoredStep[];
  insertToolCall(row: {
    id: string;
    turnId: string;
    threadId: string;
    name: string;
    arguments: string;
    ok: boolean;
    result: string;
    repeat: boolean;
    ms: number;
    createdAt: number;
  }): void;
  linkAttachments(args: { ids: string[]; messageId: string }): number;
};

export type RegistryOptions = {
  store: TurnStore;
  /** The model servers and the queue in front of their slots (asked per turn: the Settings page may change them). */
  models: () => ModelPool;
  tools: () => ToolSet;
  now?: () => number;
  /** Who the assistant is, who and where the user is: read at the start of each turn (the Settings page may change them). */
  identity: () => TurnIdentity;
  engine?: () => Partial<EngineConfig>;
  /** Upper bound on history sent to the model, in characters (from the model's context size). */
  historyChars?: number;
  /** Writes thread titles in the background after a first exchange (off: titles stay the first words). */
  titles?: BackgroundTitles;
  /** How long a call waits for the user to allow it before it counts as denied. */
  approvalTimeoutMs?: number;
  /** "Always allow this tool": the tool runs without asking from now on. */
  allowAlways?: (server: string, tool: string) => void;
  /** Thinking as the Settings page asks it (read at the start of each turn). */
  thinking?: () => { mode: ThinkingMode; inHistory: boolean };
  /** A stored image as a data URL, for a server that sees images (the runtime reads it from DATA_DIR). */
  imageData?: (file: { sha256: string; mime: string }) => string | undefined;
  /** An attached file's table, read into one the first time a turn needs it (lib/tables/attached.ts). */
  tableOf?: ContextRequest['tableOf'];
  log?: (message: string) => void;
};

export type StreamedEvent = TurnEvent & { seq: number };
export type Listener = { event: (event: StreamedEvent) => void; end: () => void };

type LiveTurn = {
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
};

/** Partial answers are written to the message at most this often, so a crash keeps them. */
const PARTIAL_SAVE_MS = 500;
/** The context assumed for a server that has not said its own (llama-server's -c 16384, as the README suggests). */
const DEFAULT_CONTEXT_TOKENS = 16384;
/** A thread title is the first words of its first message. */
const TITLE_CHARS = 60;

export function titleFrom(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  if (line.length <= TITLE_CHARS) return line;
  const cut = line.slice(0, TITLE_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 30)).trim()}…`;
}

/** How a turn ends when it fails or is stopped outside the engine (waiting for the model, or before it ran): with the words heard so far. */
function endedOutsideTheEngine(e: HearthError, heard: string): TurnOutcome {
  // only runEngine logs diagnostics; an outcome made here is never read for them
  const diagnostics: string[] = [];
  if (e.code === 'cancelled') return { status: 'cancelled', partial: heard, stats: { ...EMPTY_STATS }, diagnostics };
  return { status: 'error', code: e.code, message: e.message, partial: heard, stats: { ...EMPTY_STATS }, diagnostics };
}

/** A call waiting for the user, by its call id. */
type PendingApproval = { threadId: string; server: string; tool: string; answer: (a: ApprovalAnswer) => void };

export class TurnRegistry {
  private readonly live = new Map<string, LiveTurn>();
  private readonly approvals = new Map<string, PendingApproval>();
  private readonly now: () => number;

  constructor(private readonly options: RegistryOptions) {
    this.now = options.now ?? Date.now;
  }

  isLive(turnId: string): boolean {
    const t = this.live.get(turnId);
    return Boolean(t && !t.finished);
  }

  /**
   * Saves the user message and starts the turn; throws turn_running when the thread is busy.
   * The message follows the branch the thread shows, or, with `editOf`, replaces that earlier
   * question on a new branch beside it (keeping its files; the old branch stays).
   */
  start({
    threadId,
    content,
    attachmentIds = [],
    editOf,
  }: {
    threadId: string;
    content: string;
    attachmentIds?: string[];
    editOf?: string;
  }) {
    const { store } = this.options;
    const turnId = randomUUID();
    const userMessageId = randomUUID();
    const assistantMessageId = randomUUID();
    const now = this.now();
    store.transaction(() => {
      const thread = this.requireIdle(threadId);
      const tree = new MessageTree(store.listMessages({ threadId }));
      let parentId: string | null;
      if (editOf !== undefined) {
        const edited = tree.get(editOf);
        if (!edited) throw new HearthError('not_found', 'editOf: there is no such message in this thread.');
        if (edited.role !== 'user')
          throw new HearthError('bad_request', 'editOf: only a question can be edited; an answer can be regenerated.');
        parentId = edited.parentId;
      } else {
        parentId = tree.leaf(thread.currentLeafId)?.id ?? null;
      }
      store.insertMessage({ id: userMessageId, threadId, turnId, parentId, role: 'user', content, status: 'complete', now });
      const ids = [...new Set(attachmentIds)];
      if (store.linkAttachments({ ids, messageId: userMessageId }) !== ids.length) {
        // The transaction rolls back: the message is not half-stored.
        throw new HearthError('bad_request', 'attachmentIds: an attachment is unknown or was already sent with another message.');
      }
      if (editOf !== undefined) store.copyAttachments({ fromMessageId: editOf, toMessageId: userMessageId, newId: randomUUID, now });
      store.insertMessage({
        id: assistantMessageId,
        threadId,
        turnId,
        parentId: userMessageId,
        role: 'assistant',
        content: '',
        status: 'streaming',
        now: now + 1,
      });
      store.insertTurn({ id: turnId, threadId, userMessageId, assistantMessageId, now });
      store.setCurrentLeaf({ threadId, leafId: assistantMessageId });
      store.titleIfUntitled({ id: threadId, title: titleFrom(content) });
      store.touchThread({ id: threadId, now });
    });
    return this.begin(turnId, threadId, userMessageId, assistantMessageId);
  }

  /**
   * A new answer to the question an answer replied to, kept beside the old one (which stays
   * reachable). `messageId` is that answer (or the question itself, when its answer is gone).
   */
  regenerate({ threadId, messageId, model }: { threadId: string; messageId: string; model?: string }) {
    const { store } = this.options;
    const turnId = randomUUID();
    const assistantMessageId = randomUUID();
    const now = this.now();
    const userMessageId = store.transaction(() => {
      this.requireIdle(threadId);
      const tree = new MessageTree(store.listMessages({ threadId }));
      const message = tree.get(messageId);
      if (!message) throw new HearthError('not_found', 'There is no such message in this thread.');
      const question = message.role === 'user' ? message : message.parentId ? tree.get(message.parentId) : undefined;
      if (!question || question.role !== 'user') throw new HearthError('bad_request', 'That answer has no question to answer again.');
      store.insertMessage({
        id: assistantMessageId,
        threadId,
        turnId,
        parentId: question.id,
        role: 'assistant',
        content: '',
        status: 'streaming',
        now,
      });
      store.insertTurn({ id: turnId, threadId, userMessageId: question.id, assistantMessageId, now });
      // Another model for this one answer: kept on it before the turn runs, so a restart resumes with it.
      if (model) store.setMessageModel({ id: assistantMessageId, model });
      store.setCurrentLeaf({ threadId, leafId: assistantMessageId });
      store.touchThread({ id: threadId, now });
      return question.id;
    });
    return this.begin(turnId, threadId, userMessageId, assistantMessageId);
  }

  /** The thread, when no turn of it is running (inside a transaction). */
  private requireIdle(threadId: string) {
    const { store } = this.options;
    const thread = store.getThread({ id: threadId });
    if (!thread) throw new HearthError('not_found', 'There is no thread with that id.');
    if (this.busy(threadId))
      throw new HearthError('turn_running', 'A reply is still being written in this thread. Wait for it or stop it first.');
    return thread;
  }

  /** Whether a turn of this thread is running or waiting. */
  busy(threadId: string): boolean {
    return (
      Boolean(this.options.store.activeTurnOf({ threadId })) || [...this.live.values()].some((t) => t.threadId === threadId && !t.finished)
    );
  }

  private begin(turnId: string, threadId: string, userMessageId: string, assistantMessageId: string) {
    const live = this.track(turnId, threadId, 0);
    this.emit(live, { type: 'turn', turnId, threadId, userMessageId, assistantMessageId });
    void this.execute(live, { userMessageId, assistantMessageId, steps: [] });
    return { turnId, userMessageId, assistantMessageId };
  }

  private track(turnId: string, threadId: string, seq: number): LiveTurn {
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
    };
    this.live.set(turnId, live);
    return live;
  }

  /** Stores an event, then hands it to listeners (stored first: a re-attaching client misses nothing). */
  private emit(live: LiveTurn, event: TurnEvent) {
    const seq = ++live.seq;
    const now = this.now();
    try {
      if (!live.gone && !live.stopped) {
        this.options.store.appendEvent({ turnId: live.turnId, seq, type: event.type, data: event, now });
        this.observe(live, event, now);
      }
    } catch (err) {
      // The thread was deleted under the turn (or the disk failed): keep serving, say so in the log.
      this.options.log?.(`turn ${live.turnId}: could not store a ${event.type} event: ${(err as Error).message}`);
      // A full disk stops the turn: what it says from here on could not be kept.
      const full = asStorageFull(err);
      if (full && !live.abort.signal.aborted) live.abort.abort(full);
    }
    for (const listener of live.listeners) {
      try {
        listener.event({ ...event, seq });
      } catch {
        live.listeners.delete(listener);
      }
    }
  }

  /** Side effects of events: partial answers and tool calls are persisted as they happen. */
  private observe(live: LiveTurn, event: TurnEvent, now: number) {
    const { store } = this.options;
    if (event.type === 'status' && event.stage !== 'loading') live.stage = event.stage;
    if (event.type === 'delta') {
      live.draft += event.text;
      if (now - live.lastSaved >= PARTIAL_SAVE_MS) {
        live.lastSaved = now;
        const turn = store.getTurn({ id: live.turnId });
        if (turn?.assistantMessageId) store.updateMessage({ id: turn.assistantMessageId, content: live.draft });
      }
    } else if (event.type === 'draft_rejected') {
      live.draft = '';
    } else if (event.type === 'tool_call') {
      live.pendingCalls.set(event.id, { name: event.name, arguments: event.arguments });
    } else if (event.type === 'tool_result') {
      const call = live.pendingCalls.get(event.id);
      store.insertToolCall({
        id: `${live.turnId}:${event.id}`,
        turnId: live.turnId,
        threadId: live.threadId,
        name: event.name,
        // the engine emits each call before its result, in the same process
        arguments: call?.arguments ?? '{}',
        ok: event.ok,
        result: JSON.stringify(event.ok ? (event.result ?? null) : { error: event.error }),
        repeat: Boolean(event.repeat),
        ms: event.ms,
        createdAt: now,
      });
    }
  }

  private async execute(live: LiveTurn, ids: { userMessageId: string; assistantMessageId: string; steps: StoredStep[] }) {
    const { store } = this.options;
    // The pool of this turn's start: if the servers change meanwhile, the turn leaves the pool it entered.
    const models = this.options.models();
    // The answer's own model (a regeneration with another, or a resumed turn's), else the thread's; unset: the default.
    const model = store.getMessage({ id: ids.assistantMessageId })?.model ?? store.getThread({ id: live.threadId })?.model ?? undefined;
    const ticket = models.enter(
      live.turnId,
      live.threadId,
      (position) => this.emit(live, { type: 'status', stage: 'queued', queuePosition: position }),
      { model, onLoading: (name, loading) => this.loading(live, name, loading) },
    );
    const onAbort = () => models.leave(live.turnId);
    // a signal aborts once
    live.abort.signal.addEventListener('abort', onAbort, { once: true });
    let outcome: TurnOutcome;
    try {
      const lease = await ticket;
      // a cancelled turn's words are finish()'s own, never this reason's
      if (!lease || live.abort.signal.aborted) throw new HearthError('cancelled', 'Stopped.');
      store.setTurnStatus({ id: live.turnId, status: 'running' });
      if (lease.modelId) store.setMessageModel({ id: ids.assistantMessageId, model: lease.modelId });
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
      this.finish(live, ids.assistantMessageId, outcome);
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
      this.live.delete(live.turnId);
    }
  }

  /**
   * A cold model behind a router or llama-swap is loading for one of the turn's calls: the stage
   * line says so, with when it began, until the model answers; then it goes back to the stage
   * the turn was at. Calls loading at once (a round and its checks) share one loading stage.
   */
  private loading(live: LiveTurn, model: string, loading: boolean) {
    live.loadingCalls += loading ? 1 : -1;
    if (loading && live.loadingCalls === 1) this.emit(live, { type: 'status', stage: 'loading', model, since: this.now() });
    else if (!loading && live.loadingCalls === 0) this.emit(live, { type: 'status', stage: live.stage ?? 'thinking' });
  }

  private async runEngine(
    live: LiveTurn,
    ids: { userMessageId: string; assistantMessageId: string; steps: StoredStep[] },
    lease: Lease,
  ): Promise<TurnOutcome> {
    const { store } = this.options;
    const { context, question, earlierAnswers, thinking, tools, facts, tables } = await assembleContext({
      store,
      threadId: live.threadId,
      turnId: live.turnId,
      userMessageId: ids.userMessageId,
      lease,
      tools: this.options.tools(),
      identity: this.options.identity(),
      now: this.now(),
      // The history window fits the context of the server this turn runs on.
      historyChars: this.options.historyChars ?? historyCharsFor(lease.contextSize ?? DEFAULT_CONTEXT_TOKENS),
      imageData: this.options.imageData,
      tableOf: this.options.tableOf,
      thinking: this.options.thinking?.(),
    });
    const steps = new StepLedger(ids.steps, (step) => store.appendStep({ turnId: live.turnId, ...step, now: this.now() }));
    const outcome = await runTurn(
      { question, earlierAnswers },
      {
        model: lease.model,
        parallelSideCalls: lease.parallelSideCalls,
        vision: lease.vision,
        thinking,
        awaitApproval: (request, signal) => this.waitForApproval(live, request, signal),
        tools: tools.registry,
        toolDeps: tools.deps(live.threadId),
        context,
        steps,
        emit: (event) => this.emit(live, event),
        now: this.now,
        signal: live.abort.signal,
        researchAvailable: tools.researchAvailable,
        tables,
        config: this.options.engine?.(),
      },
    );
    // Which facts the answer drew on, said under it (before its message and done, so a replay has it too).
    if (outcome.status === 'done') {
      const used = factsUsed(facts, outcome.content);
      if (used.length) this.emit(live, { type: 'memory', facts: used.map((f) => f.text) });
    }
    // The question as it was sent: later turns send its block again, word for word (none, when
    // nothing bore on it this time, even if an earlier answer to it had one).
    store.setContextBlock({ id: ids.userMessageId, contextBlock: context.contextNotes });
    for (const d of [...outcome.diagnostics, ...context.diagnostics.map((d) => `${d.layerId}.${d.hook}: ${d.message}`)]) {
      this.options.log?.(`turn ${live.turnId}: ${d}`);
    }
    return outcome;
  }

  /**
   * The user's answer to a call waiting in this thread: allow once, always allow the tool, or
   * deny. False when no call of the thread is waiting under that id (answered already, or gone).
   */
  answerApproval({ threadId, callId, answer }: { threadId: string; callId: string; answer: ApprovalAnswer }): boolean {
    const pending = this.approvals.get(callId);
    if (!pending || pending.threadId !== threadId) return false;
    this.approvals.delete(callId);
    if (answer === 'always') this.options.allowAlways?.(pending.server, pending.tool);
    pending.answer(answer);
    return true;
  }

  private waitForApproval(live: LiveTurn, request: { callId: string; server: string; tool: string }, signal: AbortSignal) {
    return new Promise<ApprovalAnswer>((resolve) => {
      const done = (a: ApprovalAnswer) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        this.approvals.delete(request.callId);
        resolve(a);
      };
      // Unanswered for too long is no: nothing runs that was not allowed.
      const timer = setTimeout(() => done('deny'), this.options.approvalTimeoutMs ?? 10 * 60_000);
      timer.unref?.();
      const stop = () => done('deny');
      signal.addEventListener('abort', stop, { once: true });
      this.approvals.set(request.callId, {
        threadId: live.threadId,
        server: request.server,
        tool: request.tool,
        answer: done,
      });
    });
  }

  private finish(live: LiveTurn, assistantMessageId: string, outcome: TurnOutcome) {
    if (live.stopped) return this.release(live);
    if (live.gone) return this.ended(live, { type: 'error', code: 'cancelled', message: 'Stopped: the thread was deleted.' });
    const { store } = this.options;
    const now = this.now();
    if (outcome.status === 'done') {
      store.updateMessage({ id: assistantMessageId, content: outcome.content, status: 'complete', errorCode: null });
      store.setTurnStatus({ id: live.turnId, status: 'done', stats: outcome.stats, now });
      this.emit(live, { type: 'message', id: assistantMessageId, content: outcome.content });
      this.emit(live, { type: 'done', turnId: live.turnId, stats: outcome.stats });
    } else if (outcome.status === 'cancelled') {
      // The partial answer: the words the client heard since the last draft set aside (the registry's
      // own outcomes pass its draft), else those kept from before a restart.
      store.updateMessage({
        id: assistantMessageId,
        content: outcome.partial || live.resumedFrom || '',
        status: 'interrupted',
        errorCode: 'cancelled',
      });
      store.setTurnStatus({ id: live.turnId, status: 'cancelled', stats: outcome.stats, now });
      this.emit(live, { type: 'error', code: 'cancelled', message: 'Stopped. The partial answer was kept.' });
    } else {
      store.updateMessage({
        id: assistantMessageId,
        content: outcome.partial || live.resumedFrom || '',
        status: 'error',
        errorCode: outcome.code,
      });
      store.setTurnStatus({ id: live.turnId, status: 'error', stats: outcome.stats, now });
      this.emit(live, {
        type: 'error',
        code: outcome.code,
        message: outcome.message,
        ...(outcome.code === 'budget_exhausted' ? { fuelUsed: outcome.stats.fuelUsed } : {}),
      });
    }
    store.touchThread({ id: live.threadId, now });
    this.release(live);
    this.compact(live.turnId, live.threadId);
    this.options.titles?.afterTurn(live.threadId, outcome.status === 'done');
  }

  /** Resolves when no background work (a title) is under way: tests wait on this, never on time. */
  backgroundIdle(): Promise<void> {
    return this.options.titles?.idle() ?? Promise.resolve();
  }

  /** A finished turn is stored as what was said, not every token (lib/turns/compact.ts); its step ledger goes. */
  private compact(turnId: string, threadId: string) {
    const { store } = this.options;
    try {
      store.transaction(() => {
        const decisions = store.decisionRowsOfThread({ threadId, layerId: DECISIONS_LAYER_ID }).filter((d) => d.turnId === turnId);
        const events = store.eventsAfter({ turnId, after: 0 }).map((e) => ({ seq: e.seq, data: e.data as TurnEvent }));
        const compacted = compactEvents(
          events,
          (e) => decisions.find((d) => d.stepId === e.record.stepId && d.at === e.record.at)?.id ?? null,
        );
        store.storeCompactLog({ turnId, events: compacted.map(toStored) });
        store.deleteTurnSteps({ turnId });
      });
    } catch (err) {
      // The full log stays: replay still works, it only takes more room.
      this.options.log?.(`turn ${turnId}: could not compact its events: ${(err as Error).message}`);
    }
  }

  /**
   * Replays the stored events after `after`, then follows live ones. Reading the log and
   * registering the listener happen in one synchronous step, so no event falls between.
   */
  subscribe(turnId: string, after: number, listener: Listener): { backlog: StreamedEvent[]; live: boolean; unsubscribe: () => void } {
    const { store } = this.options;
    const rows = store.eventsAfter({ turnId, after }).map((e) => fromStored({ seq: e.seq, data: e.data as StoredCompact }));
    // A finished turn's log holds references to what the tables keep (see compact.ts).
    const facts = rows.some((r) => 'ref' in r) ? store.turnFacts({ turnId, layerId: DECISIONS_LAYER_ID }) : undefined;
    const backlog = rows.flatMap((row): StreamedEvent[] => {
      if (!('ref' in row)) return [{ ...row.data, seq: row.seq }];
      const event = facts
        ? expandEvent(row, { ...facts, toolCall: (id) => facts.toolCalls.get(id), decision: (id) => facts.decisions.get(id) })
        : null;
      return event ? [{ ...event, seq: row.seq }] : [];
    });
    const live = this.live.get(turnId);
    if (!live || live.finished) return { backlog, live: false, unsubscribe: () => undefined };
    live.listeners.add(listener);
    return { backlog, live: true, unsubscribe: () => live.listeners.delete(listener) };
  }

  /** Stops a running or queued turn at once. */
  cancel(turnId: string): boolean {
    const live = this.live.get(turnId);
    if (!live || live.finished) return false;
    // a cancelled turn's words are finish()'s own, never this reason's
    live.abort.abort(new HearthError('cancelled', 'Stopped.'));
    return true;
  }

  /** Stops every turn of a thread (they end cancelled, their partial answers kept). */
  cancelThread(threadId: string) {
    // a cancelled turn's words are finish()'s own, never this reason's
    for (const t of this.live.values()) if (t.threadId === threadId) t.abort.abort(new HearthError('cancelled', 'Stopped.'));
  }

  /**
   * Hearth is stopping (Ctrl+C, SIGTERM): every live turn is stored at once as interrupted, with
   * the words heard so far, and stopped. Stored synchronously, because the process may exit before
   * an aborted model call settles; a stopped turn is not resumed at the next start (only a crash's
   * are), since the person who stopped Hearth asked for its work to stop.
   */
  stopAll(): string[] {
    const { store } = this.options;
    const stopped: string[] = [];
    for (const live of this.live.values()) {
      if (live.finished || live.gone || live.stopped) continue;
      try {
        const turn = store.getTurn({ id: live.turnId });
        if (turn?.assistantMessageId) {
          store.updateMessage({
            id: turn.assistantMessageId,
            content: live.draft || live.resumedFrom || '',
            status: 'interrupted',
            errorCode: 'cancelled',
          });
        }
        store.setTurnStatus({ id: live.turnId, status: 'interrupted', now: this.now() });
        this.emit(live, { type: 'error', code: 'cancelled', message: 'Hearth was stopped. The partial answer was kept.' });
      } catch (err) {
        this.options.log?.(`turn ${live.turnId}: could not be stored as interrupted: ${(err as Error).message}`);
      }
      live.stopped = true;
      live.abort.abort(new HearthError('cancelled', 'Stopped.'));
      this.release(live);
      stopped.push(live.turnId);
    }
    return stopped;
  }

  /** Stops every turn of a thread about to be deleted: nothing more of them is stored (their rows go with the thread). */
  forgetThread(threadId: string) {
    for (const t of this.live.values()) if (t.threadId === threadId) t.gone = true;
    this.cancelThread(threadId);
  }

  /** A turn whose thread is gone ends for its listeners only. */
  private ended(live: LiveTurn, last: TurnEvent) {
    this.emit(live, last);
    this.release(live);
  }

  /** The turn is over: its listeners hear the end, and it is no longer live. */
  private release(live: LiveTurn) {
    live.finished = true;
    for (const l of live.listeners) {
      try {
        l.end();
      } catch {
        // A listener that fails as it ends (a closed stream) is not the turn failing to end.
      }
    }
    live.listeners.clear();
    this.live.delete(live.turnId);
  }

  /**
   * At start: turns that were running when the server stopped resume from their step ledger
   * (completed model calls and tool runs are not repeated), or are marked interrupted with
   * their partial answer kept when they cannot resume.
   */
  resumeUnfinished(): { resumed: string[]; interrupted: string[] } {
    const { store } = this.options;
    const resumed: string[] = [];
    const interrupted: string[] = [];
    for (const turn of store.unfinishedTurns()) {
      if (this.live.has(turn.id)) continue;
      const assistant = turn.assistantMessageId ? store.getMessage({ id: turn.assistantMessageId }) : undefined;
      const user = store.getMessage({ id: turn.userMessageId });
      if (!assistant || !user) {
        if (turn.assistantMessageId) store.updateMessage({ id: turn.assistantMessageId, status: 'interrupted' });
        store.setTurnStatus({ id: turn.id, status: 'interrupted', now: this.now() });
        interrupted.push(turn.id);
        continue;
      }
      const live = this.track(turn.id, turn.threadId, store.lastEventSeq({ turnId: turn.id }));
      // The answer starts again from the model's next words: the page clears what it showed
      // on "resumed", so the text from before the restart is never shown twice.
      live.resumedFrom = assistant.content;
      this.emit(live, { type: 'status', stage: 'resumed' });
      void this.execute(live, { userMessageId: user.id, assistantMessageId: assistant.id, steps: store.stepsOf({ turnId: turn.id }) });
      resumed.push(turn.id);
    }
    return { resumed, interrupted };
  }

  /** Waits until no turn is running (tests and shutdown). */
  async idle(): Promise<void> {
    while ([...this.live.values()].some((t) => !t.finished)) await new Promise((r) => setImmediate(r));
  }
}
