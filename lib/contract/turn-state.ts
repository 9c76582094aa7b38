import type { DecisionRecord } from '@/lib/contract/decisions';
import type { TurnEvent, TurnStage, TurnStats } from '@/lib/contract/events';

/** The browser's picture of a turn, built by applying its events in order (pure, tested). */

export type LiveToolCall = {
  id: string;
  name: string;
  arguments: string;
  ok?: boolean;
  result?: unknown;
  error?: string;
  repeat?: boolean;
  ms?: number;
};

export type SetAsideDraft = { text: string; reason: string; detail?: string; query?: string };

/**
 * One model call's thinking, in the order the turn went: `toolCallsBefore` is how many of the
 * turn's tool calls came before it, so the page shows each round's thinking beside its calls.
 * `done` once the answer or a tool call began (the page folds it then); `ms` and `tokens` come
 * with the `thought` event that closed it.
 */
export type ApprovalRequest = { callId: string; server: string; tool: string; arguments: string; status: 'pending' | 'allowed' | 'denied' };

export type ThinkingBlock = {
  text: string;
  toolCallsBefore: number;
  done: boolean;
  ms?: number;
  tokens?: number;
  /** Pieces streamed so far (about a token each): the live count while it thinks. */
  pieces?: number;
};

export type LiveTurnState = {
  turnId: string;
  userMessageId?: string;
  assistantMessageId?: string;
  lastSeq: number;
  stage: TurnStage | null;
  queuePosition?: number;
  /** While the stage is loading: the model a router or llama-swap is loading, and since when (epoch ms). */
  loading?: { model: string; since: number };
  draft: string;
  setAside: SetAsideDraft[];
  toolCalls: LiveToolCall[];
  thinking: ThinkingBlock[];
  /** Calls that asked the user first, and what they said. */
  approvals: ApprovalRequest[];
  decisions: DecisionRecord[];
  calculation?: { expression: string; result: string; exact: boolean; fraction?: string };
  /** The memory facts the answer drew on. */
  remembered?: string[];
  final?: string;
  error?: { code: string; message: string };
  stats?: TurnStats;
  ended: boolean;
};

export function newTurnState(turnId: string): LiveTurnState {
  return {
    turnId,
    lastSeq: 0,
    stage: null,
    draft: '',
    setAside: [],
    toolCalls: [],
    thinking: [],
    approvals: [],
    decisions: [],
    ended: false,
  };
}

/** The open thinking block folds: the answer or a tool call began. */
function closeThinking(blocks: ThinkingBlock[], figures: { ms?: number; tokens?: number } = {}): ThinkingBlock[] {
  const last = blocks.at(-1);
  if (!last || (last.done && !('ms' in figures))) return blocks;
  // The live count is for the stage line while it thinks; a closed block has its tokens.
  const { pieces: _pieces, ...closed } = last;
  return [...blocks.slice(0, -1), { ...closed, done: true, ...figures }];
}

/** The thinking of a turn that streams: a piece adds to the open block (or, whole, replaces its text), or opens one. */
function addThinking(blocks: ThinkingBlock[], text: string, toolCallsBefore: number, whole: boolean): ThinkingBlock[] {
  const last = blocks.at(-1);
  if (last && !last.done)
    return [...blocks.slice(0, -1), { ...last, text: whole ? text : last.text + text, pieces: (last.pieces ?? 0) + (whole ? 0 : 1) }];
  return [...blocks, { text, toolCallsBefore, done: false, pieces: whole ? 0 : 1 }];
}

export function applyEvent(state: LiveTurnState, event: TurnEvent & { seq?: number }): LiveTurnState {
  if (event.seq !== undefined && event.seq <= state.lastSeq) return state; // a replayed duplicate
  const s: LiveTurnState = { ...state, lastSeq: event.seq ?? state.lastSeq };
  switch (event.type) {
    case 'turn':
      return { ...s, userMessageId: event.userMessageId, assistantMessageId: event.assistantMessageId };
    case 'status': {
      if (event.stage === 'loading')
        return { ...s, stage: event.stage, loading: { model: event.model ?? 'the model', since: event.since ?? Date.now() } };
      // Any other stage: the model is loaded (a state that never loaded has no key for it).
      const { loading: _loaded, ...rest } = s;
      if (event.stage === 'resumed') return { ...rest, stage: event.stage, draft: '' };
      return { ...rest, stage: event.stage, queuePosition: event.queuePosition };
    }
    case 'decision':
      return { ...s, decisions: [...s.decisions, event.record] };
    case 'delta':
      return { ...s, draft: s.draft + event.text, thinking: closeThinking(s.thinking) };
    case 'thinking':
      return { ...s, thinking: addThinking(s.thinking, event.text, s.toolCalls.length, event.whole === true) };
    case 'thought': {
      const last = s.thinking.at(-1);
      // The figures belong to the block the call streamed, whether or not its answer folded it already.
      return last && last.ms === undefined ? { ...s, thinking: closeThinking(s.thinking, { ms: event.ms, tokens: event.tokens }) } : s;
    }
    case 'draft':
      return { ...s, draft: event.text };
    case 'draft_rejected':
      return {
        ...s,
        draft: '',
        setAside: s.draft.trim()
          ? [...s.setAside, { text: s.draft, reason: event.reason, detail: event.detail, query: event.query }]
          : s.setAside,
      };
    case 'tool_call':
      return {
        ...s,
        toolCalls: [...s.toolCalls, { id: event.id, name: event.name, arguments: event.arguments }],
        thinking: closeThinking(s.thinking),
      };
    case 'tool_result':
      return {
        ...s,
        toolCalls: s.toolCalls.map((c) =>
          c.id === event.id ? { ...c, ok: event.ok, result: event.result, error: event.error, repeat: event.repeat, ms: event.ms } : c,
        ),
      };
    case 'approval_needed': {
      // Asked again after a restart: the same card, still waiting.
      const others = s.approvals.filter((a) => a.callId !== event.callId);
      return {
        ...s,
        approvals: [
          ...others,
          { callId: event.callId, server: event.server, tool: event.tool, arguments: event.arguments, status: 'pending' },
        ],
      };
    }
    case 'approval':
      return {
        ...s,
        approvals: s.approvals.map((a) => (a.callId === event.callId ? { ...a, status: event.allow ? 'allowed' : 'denied' } : a)),
      };
    case 'calculation':
      return { ...s, calculation: { expression: event.expression, result: event.result, exact: event.exact, fraction: event.fraction } };
    case 'memory':
      return { ...s, remembered: event.facts };
    case 'message':
      return { ...s, final: event.content, draft: '' };
    case 'error':
      return { ...s, error: { code: event.code, message: event.message }, ended: true };
    case 'done':
      return { ...s, stats: event.stats, ended: true };
  }
}
