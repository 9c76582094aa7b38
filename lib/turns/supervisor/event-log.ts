import { DECISIONS_LAYER_ID } from '@/lib/turns/decide/history';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { asStorageFull } from '@/lib/shared/errors';
import type { TurnEvent } from '@/lib/contract/events';
import type { Port, Transactional } from '@/lib/shared/awaitable';
import { compactEvents, expandEvent, fromStored, toStored, type StoredCompact } from './compact';
import type { Listener, LiveTurn, LiveTurns, StreamedEvent } from './live-turns';

/**
 * A turn's events: each is stored before anyone hears it, so a client that drops re-attaches
 * with ?after=N and misses nothing. The partial answer is saved as it grows and each tool call
 * as it completes, so a crash keeps them; once the turn is over its log is compacted
 * (compact.ts) to what was said, not every token.
 */

/** What the event log needs from the database (db/store.ts provides it). */
export type EventLogStore = Transactional &
  Port<{
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
  }>;

/** Partial answers are written to the message at most this often, so a crash keeps them. */
const PARTIAL_SAVE_MS = 500;

export class TurnEventLog {
  constructor(
    private readonly store: EventLogStore,
    private readonly live: LiveTurns,
    private readonly now: () => number,
    private readonly log?: (message: string) => void,
    /** Several processes: tells the others that the turn's events up to `seq` are stored (cluster.ts). */
    private readonly announce?: (turnId: string, seq: number) => void,
  ) {}

  /**
   * Stores an event, then hands it to listeners (stored first: a re-attaching client misses
   * nothing). The store answers later, so each turn's events are written one after another on
   * the turn's own chain, in the order they were emitted; what the turn keeps in memory (its
   * draft, stage, pending calls) changes at once.
   */
  emit(live: LiveTurn, event: TurnEvent, { evenIfStopped = false }: { evenIfStopped?: boolean } = {}) {
    // Handed over: the process that took it numbers its events on from the last stored; none is heard here that was not stored.
    if (live.handedOver) return;
    const seq = ++live.seq;
    const now = this.now();
    const kept = !live.gone && (evenIfStopped || !live.stopped);
    const writes = kept ? this.observe(live, event, now) : [];
    live.written = live.written.then(async () => {
      if (kept) await this.write(live, event, seq, now, writes);
      for (const listener of live.listeners) {
        try {
          listener.event({ ...event, seq });
        } catch {
          live.listeners.delete(listener);
        }
      }
    });
  }

  /** Resolves once every event emitted so far is stored and heard. */
  flushed(live: LiveTurn): Promise<void> {
    return live.written;
  }

  private async write(live: LiveTurn, event: TurnEvent, seq: number, now: number, writes: ((store: EventLogStore) => Promise<void>)[]) {
    try {
      await this.store.appendEvent({ turnId: live.turnId, seq, type: event.type, data: event, now });
      this.announce?.(live.turnId, seq);
      for (const write of writes) await write(this.store);
    } catch (err) {
      // The thread was deleted under the turn (or the disk failed): keep serving, say so in the log.
      this.log?.(`turn ${live.turnId}: could not store a ${event.type} event: ${(err as Error).message}`);
      // A full disk stops the turn: what it says from here on could not be kept.
      const full = asStorageFull(err);
      if (full && !live.abort.signal.aborted) live.abort.abort(full);
    }
  }

  /**
   * Side effects of events: the turn's memory changes now; partial answers and tool calls are
   * persisted (the writes returned, done after the event itself is stored).
   */
  private observe(live: LiveTurn, event: TurnEvent, now: number): ((store: EventLogStore) => Promise<void>)[] {
    if (event.type === 'status' && event.stage !== 'loading') live.stage = event.stage;
    if (event.type === 'delta') {
      live.draft += event.text;
      if (now - live.lastSaved >= PARTIAL_SAVE_MS) {
        live.lastSaved = now;
        const draft = live.draft;
        return [
          async (store) => {
            const turn = await store.getTurn({ id: live.turnId });
            if (turn?.assistantMessageId) await store.updateMessage({ id: turn.assistantMessageId, content: draft });
          },
        ];
      }
    } else if (event.type === 'draft_rejected') {
      live.draft = '';
    } else if (event.type === 'tool_call') {
      live.pendingCalls.set(event.id, { name: event.name, arguments: event.arguments });
    } else if (event.type === 'tool_result') {
      const call = live.pendingCalls.get(event.id);
      const row = {
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
      };
      return [(store) => Promise.resolve(store.insertToolCall(row))];
    }
    return [];
  }

  /**
   * Hands the listener the stored events after `after`, then live ones until the turn ends.
   * The listener is registered before the log is read, and what it hears meanwhile is held: an
   * event is either in what was read or heard after, never lost between; one in both is given once.
   * Resolves when the backlog has been given; `live` is false when nothing more will come.
   */
  async subscribe(turnId: string, after: number, listener: Listener): Promise<{ live: boolean; unsubscribe: () => void }> {
    const live = this.live.get(turnId);
    let held: StreamedEvent[] | null = [];
    let ended = false;
    let last = after;
    const follower: Listener = {
      event: (event) => {
        if (held) held.push(event);
        // One stored before the log was read but heard after it: given with the backlog already.
        else if (event.seq > last) {
          last = event.seq;
          listener.event(event);
        }
      },
      end: () => {
        ended = true;
        if (!held) listener.end();
      },
    };
    const following = live !== undefined && !live.finished;
    if (following) live.listeners.add(follower);
    let backlog: StreamedEvent[];
    try {
      backlog = await this.storedAfter(turnId, after);
    } catch (err) {
      live?.listeners.delete(follower);
      throw err;
    }
    try {
      for (const event of backlog) {
        listener.event(event);
        last = Math.max(last, event.seq);
      }
      for (const event of held)
        if (event.seq > last) {
          last = event.seq;
          listener.event(event);
        }
    } catch {
      // A listener that fails as it is handed the backlog (a closed stream) is dropped, as a live one is.
      live?.listeners.delete(follower);
      return { live: false, unsubscribe: () => undefined };
    }
    held = null;
    if (!following || ended) return { live: false, unsubscribe: () => undefined };
    return { live: true, unsubscribe: () => live.listeners.delete(follower) };
  }

  /** The stored events after `after`, a finished turn's expanded from what the tables keep. */
  async storedAfter(turnId: string, after: number): Promise<StreamedEvent[]> {
    const { store } = this;
    const rows = (await store.eventsAfter({ turnId, after })).map((e) => fromStored({ seq: e.seq, data: e.data as StoredCompact }));
    // A finished turn's log holds references to what the tables keep (see compact.ts).
    const facts = rows.some((r) => 'ref' in r) ? await store.turnFacts({ turnId, layerId: DECISIONS_LAYER_ID }) : undefined;
    return rows.flatMap((row): StreamedEvent[] => {
      if (!('ref' in row)) return [{ ...row.data, seq: row.seq }];
      const event = facts
        ? expandEvent(row, { ...facts, toolCall: (id) => facts.toolCalls.get(id), decision: (id) => facts.decisions.get(id) })
        : null;
      return event ? [{ ...event, seq: row.seq }] : [];
    });
  }

  /** A finished turn is stored as what was said, not every token (compact.ts); its step journal goes. */
  async compact(turnId: string, threadId: string) {
    const { store } = this;
    try {
      await store.transaction(async () => {
        const decisions = (await store.decisionRowsOfThread({ threadId, layerId: DECISIONS_LAYER_ID })).filter((d) => d.turnId === turnId);
        const events = (await store.eventsAfter({ turnId, after: 0 })).map((e) => ({ seq: e.seq, data: e.data as TurnEvent }));
        const compacted = compactEvents(
          events,
          (e) => decisions.find((d) => d.stepId === e.record.stepId && d.at === e.record.at)?.id ?? null,
        );
        await store.storeCompactLog({ turnId, events: compacted.map(toStored) });
        await store.deleteTurnSteps({ turnId });
      });
    } catch (err) {
      // The full log stays: replay still works, it only takes more room.
      this.log?.(`turn ${turnId}: could not compact its events: ${(err as Error).message}`);
    }
  }
}
