import { DECISIONS_LAYER_ID } from '@/lib/turns/decide/history';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { asStorageFull } from '@/lib/shared/errors';
import type { TurnEvent } from '@/lib/contract/events';
import { compactEvents, expandEvent, fromStored, toStored, type StoredCompact } from './compact';
import type { Listener, LiveTurn, LiveTurns, StreamedEvent } from './live-turns';

/**
 * A turn's events: each is stored before anyone hears it, so a client that drops re-attaches
 * with ?after=N and misses nothing. The partial answer is saved as it grows and each tool call
 * as it completes, so a crash keeps them; once the turn is over its log is compacted
 * (compact.ts) to what was said, not every token.
 */

/** What the event log needs from the database (db/store.ts provides it). */
export type EventLogStore = {
  transaction<T>(fn: () => T): T;
  appendEvent(args: { turnId: string; seq: number; type: string; data: unknown; now: number }): void;
  eventsAfter(args: { turnId: string; after: number }): { seq: number; type: string; data: Record<string, unknown> }[];
  getTurn(args: { id: string }): { assistantMessageId: string | null } | undefined;
  updateMessage(args: { id: string; content?: string }): void;
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
  storeCompactLog(args: { turnId: string; events: { seq: number; type: string; data: unknown }[] }): void;
  deleteTurnSteps(args: { turnId: string }): void;
  decisionRowsOfThread(args: { threadId: string; layerId: string }): (DecisionRecord & { id: number; turnId: string | null })[];
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
};

/** Partial answers are written to the message at most this often, so a crash keeps them. */
const PARTIAL_SAVE_MS = 500;

export class TurnEventLog {
  constructor(
    private readonly store: EventLogStore,
    private readonly live: LiveTurns,
    private readonly now: () => number,
    private readonly log?: (message: string) => void,
  ) {}

  /** Stores an event, then hands it to listeners (stored first: a re-attaching client misses nothing). */
  emit(live: LiveTurn, event: TurnEvent) {
    const seq = ++live.seq;
    const now = this.now();
    try {
      if (!live.gone && !live.stopped) {
        this.store.appendEvent({ turnId: live.turnId, seq, type: event.type, data: event, now });
        this.observe(live, event, now);
      }
    } catch (err) {
      // The thread was deleted under the turn (or the disk failed): keep serving, say so in the log.
      this.log?.(`turn ${live.turnId}: could not store a ${event.type} event: ${(err as Error).message}`);
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
    const { store } = this;
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

  /**
   * Replays the stored events after `after`, then follows live ones. Reading the log and
   * registering the listener happen in one synchronous step, so no event falls between.
   */
  subscribe(turnId: string, after: number, listener: Listener): { backlog: StreamedEvent[]; live: boolean; unsubscribe: () => void } {
    const { store } = this;
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

  /** A finished turn is stored as what was said, not every token (compact.ts); its step journal goes. */
  compact(turnId: string, threadId: string) {
    const { store } = this;
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
      this.log?.(`turn ${turnId}: could not compact its events: ${(err as Error).message}`);
    }
  }
}
