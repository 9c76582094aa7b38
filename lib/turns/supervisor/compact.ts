import { applyEvent, newTurnState, type LiveTurnState } from '@/lib/contract/turn-state';
import { EMPTY_STATS, type TurnEvent, type TurnStats } from '@/lib/contract/events';

/**
 * A finished turn's event log, compacted: stored as what was said, not as every token.
 *
 * While a turn runs every streamed word is an event, so a client that drops can re-attach
 * with ?after=N and miss nothing. Once it has ended:
 * - each run of streamed words becomes one `draft` event carrying the draft so far, at the
 *   number of the run's last word; the run that became the answer (or the partial answer of
 *   a turn that failed or was stopped) is kept as a reference to the assistant message;
 * - each run of thinking pieces becomes one `thinking` event with the call's whole thinking
 *   (`whole: true`), at the number of the run's last piece;
 * - stage changes are dropped (a finished turn has no stage), except `resumed`, which starts
 *   the draft again;
 * - what a table already holds is kept as a reference and read back on replay: the turn's ids
 *   and stats (turns), the answer (messages), tool output (tool_calls), decision records
 *   (decision_records).
 * Numbers are kept, so replay from any N still yields a consistent stream: applying the
 * compacted events after N to what a client saw up to N gives the same turn as the original.
 */

export type StoredTurnEvent = { seq: number; data: TurnEvent };

/** A compacted event as stored; `ref` says what to read back from the tables on replay. */
export type CompactEvent =
  | { seq: number; data: TurnEvent }
  | { seq: number; ref: 'turn' | 'done' | 'answer-draft' }
  | { seq: number; ref: 'message' }
  | { seq: number; ref: 'tool_call'; id: string }
  | { seq: number; ref: 'tool_result'; id: string; ms: number }
  | { seq: number; ref: 'decision'; decisionId: number };

/**
 * `decisionId` finds the stored record of a decision event (null when it is not stored, in which
 * case the event is kept whole).
 */
export function compactEvents(
  events: readonly StoredTurnEvent[],
  decisionId: (e: Extract<TurnEvent, { type: 'decision' }>) => number | null,
): CompactEvent[] {
  const out: CompactEvent[] = [];
  // only the state's draft is read here, never its turn id
  let state: LiveTurnState = newTurnState('');
  let run: { lastSeq: number } | null = null;
  /** Where the last draft written out stands, while nothing has set it aside or started it again. */
  let lastDraft: number | null = null;
  const closeRun = () => {
    if (!run) return;
    lastDraft = out.push({ seq: run.lastSeq, data: { type: 'draft', text: state.draft } }) - 1;
    run = null;
  };
  /** A run of thinking pieces: one event with the call's whole thinking, at the run's last number. */
  let thinking = null as { lastSeq: number; text: string } | null;
  const closeThinking = () => {
    if (!thinking) return;
    out.push({ seq: thinking.lastSeq, data: { type: 'thinking', text: thinking.text, whole: true } });
    thinking = null;
  };
  for (const { seq, data } of events) {
    if (data.type !== 'delta') closeRun();
    if (data.type !== 'thinking') closeThinking();
    state = applyEvent(state, { ...data, seq });
    if (data.type === 'draft_rejected' || (data.type === 'status' && data.stage === 'resumed')) lastDraft = null;
    // The draft standing when the turn ends is the answer (or the partial answer of a turn that
    // failed or was stopped): the assistant message holds its text.
    if ((data.type === 'message' || data.type === 'error') && lastDraft !== null) {
      out[lastDraft] = { seq: out[lastDraft].seq, ref: 'answer-draft' };
      lastDraft = null;
    }
    switch (data.type) {
      case 'delta':
        run = { lastSeq: seq };
        break;
      case 'thinking':
        thinking = { lastSeq: seq, text: data.whole ? data.text : (thinking?.text ?? '') + data.text };
        break;
      case 'status':
        if (data.stage === 'resumed') out.push({ seq, data });
        break;
      case 'turn':
      case 'done':
        out.push({ seq, ref: data.type });
        break;
      case 'message':
        out.push({ seq, ref: 'message' });
        break;
      case 'tool_call':
        // Its row is written with its result: a call stopped before it returned stays whole.
        out.push(
          events.some((e) => e.data.type === 'tool_result' && e.data.id === data.id)
            ? { seq, ref: 'tool_call', id: data.id }
            : { seq, data },
        );
        break;
      case 'tool_result':
        out.push({ seq, ref: 'tool_result', id: data.id, ms: data.ms });
        break;
      case 'decision': {
        const id = decisionId(data);
        out.push(id === null ? { seq, data } : { seq, ref: 'decision', decisionId: id });
        break;
      }
      default:
        out.push({ seq, data });
    }
  }
  closeRun();
  closeThinking();
  return out;
}

/**
 * A compacted event as stored in the turn's log, as small as it can be: an event kept whole is
 * its JSON; a reference is its name alone ("turn", "done", "message", "answer-draft") or
 * {name: detail} ({"decision": 7}, {"tool_call": id}, {"tool_result": [id, ms]}).
 */
export type StoredCompact = TurnEvent | string | Record<string, unknown>;

export function toStored(e: CompactEvent): { seq: number; type: string; data: StoredCompact } {
  if ('data' in e) return { seq: e.seq, type: e.data.type, data: e.data };
  const type = e.ref === 'answer-draft' ? 'draft' : e.ref;
  switch (e.ref) {
    case 'decision':
      return { seq: e.seq, type, data: { decision: e.decisionId } };
    case 'tool_call':
      return { seq: e.seq, type, data: { tool_call: e.id } };
    case 'tool_result':
      return { seq: e.seq, type, data: { tool_result: [e.id, e.ms] } };
    default:
      return { seq: e.seq, type, data: e.ref };
  }
}

/** An entry of the log (or a row of a running turn's log): an event as sent, or a reference. */
export function fromStored({ seq, data }: { seq: number; data: StoredCompact }): CompactEvent {
  if (typeof data === 'string') return { seq, ref: data as 'turn' | 'done' | 'message' | 'answer-draft' };
  if ('type' in data) return { seq, data: data as TurnEvent };
  if ('decision' in data) return { seq, ref: 'decision', decisionId: Number(data.decision) };
  if ('tool_call' in data) return { seq, ref: 'tool_call', id: String(data.tool_call) };
  const [id, ms] = data.tool_result as [string, number];
  return { seq, ref: 'tool_result', id, ms };
}

/** What replay needs to turn references back into events. */
export type TurnFacts = {
  turnId: string;
  threadId: string;
  userMessageId: string;
  assistantMessageId: string;
  /** The assistant message's text. */
  answer: string;
  stats: unknown;
  /** A tool call of the turn as stored (by the id the model gave it). */
  toolCall(id: string): { name: string; arguments: string; ok: boolean; result: unknown; repeat: boolean } | undefined;
  decision(id: number): Extract<TurnEvent, { type: 'decision' }>['record'] | undefined;
};

/** A compacted event as a client sees it; null when what it referred to is gone (a trimmed decision record). */
export function expandEvent(e: CompactEvent, facts: TurnFacts): TurnEvent | null {
  if (!('ref' in e)) return e.data;
  switch (e.ref) {
    case 'turn':
      return {
        type: 'turn',
        turnId: facts.turnId,
        threadId: facts.threadId,
        userMessageId: facts.userMessageId,
        assistantMessageId: facts.assistantMessageId,
      };
    case 'done':
      return { type: 'done', turnId: facts.turnId, stats: { ...EMPTY_STATS, ...(facts.stats as Partial<TurnStats>) } };
    case 'answer-draft':
      return { type: 'draft', text: facts.answer };
    case 'message':
      return { type: 'message', id: facts.assistantMessageId, content: facts.answer };
    case 'tool_call': {
      const call = facts.toolCall(e.id);
      return call ? { type: 'tool_call', id: e.id, name: call.name, arguments: call.arguments } : null;
    }
    case 'tool_result': {
      const call = facts.toolCall(e.id);
      if (!call) return null;
      const base = {
        type: 'tool_result' as const,
        id: e.id,
        name: call.name,
        ok: call.ok,
        ms: e.ms,
        ...(call.repeat ? { repeat: true } : {}),
      };
      if (call.ok) return { ...base, result: call.result };
      return { ...base, error: String((call.result as { error?: unknown } | null)?.error ?? 'failed') };
    }
    case 'decision': {
      const record = facts.decision(e.decisionId);
      return record ? { type: 'decision', record } : null;
    }
  }
}
