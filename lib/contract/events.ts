import type { DecisionRecord } from '@/lib/contract/decisions';

/** The events of a turn, in the order the engine emits them (see docs/api.md: Turn events). */

export type TurnStats = {
  rounds: number;
  modelCalls: number;
  toolCalls: number;
  gateNudges: number;
  promptTokens: number;
  completionTokens: number;
  fuelUsed: number;
  ms: number;
  /** Time spent waiting on the model server (so engine time = ms - modelMs). */
  modelMs: number;
  /** The model wrote no answer, so Hearth compiled one from what the tools found. */
  compiled?: boolean;
  /** From the turn's start to the first streamed word of its answer. */
  firstTokenMs?: number;
  /** Generation speed over the turn's conversation calls, from llama.cpp's own timings. */
  tokensPerSecond?: number;
  /** From the turn's start to the first streamed token of the model's thinking. */
  firstThinkingMs?: number;
  /** Tokens the model spent thinking, over the turn's rounds (llama-server streams one a chunk). */
  thinkingTokens?: number;
  /** Time the model spent thinking, over the turn's rounds: from each round's first thinking token to its answer or tool call. */
  thinkingMs?: number;
};

/** A turn's stats before anything happened (stored stats leave out what is zero). */
export const EMPTY_STATS: TurnStats = {
  rounds: 0,
  modelCalls: 0,
  toolCalls: 0,
  gateNudges: 0,
  promptTokens: 0,
  completionTokens: 0,
  fuelUsed: 0,
  ms: 0,
  modelMs: 0,
};

/** loading: a router or llama-swap loads the model a call asked for (a cold start), with when it began. */
export type TurnStage = 'queued' | 'loading' | 'thinking' | 'searching' | 'checking' | 'writing' | 'resumed';

export type TurnEvent =
  | { type: 'turn'; turnId: string; threadId: string; userMessageId: string; assistantMessageId: string }
  | { type: 'status'; stage: TurnStage; queuePosition?: number; model?: string; since?: number }
  | { type: 'decision'; record: DecisionRecord }
  | { type: 'delta'; text: string }
  /**
   * A piece of the model's thinking, streamed before its answer or tool call: never the answer.
   * `whole`: the call's thinking so far, replacing what was streamed of it (what a finished
   * turn's thinking becomes once compacted, as `draft` is for the answer).
   */
  | { type: 'thinking'; text: string; whole?: true }
  /** The thinking of one model call ended (its answer or tool call began): how long it took and its tokens. */
  | { type: 'thought'; ms: number; tokens: number }
  /** The draft so far, replacing what was streamed: what a finished turn's streamed words become once compacted. */
  | { type: 'draft'; text: string }
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  /** A call waits for the user: allow it once, always allow its tool, or deny it (POST /api/threads/:id/approvals). */
  | { type: 'approval_needed'; callId: string; server: string; tool: string; arguments: string }
  /** The user's answer (or the wait running out, a denial). */
  | { type: 'approval'; callId: string; allow: boolean; always?: boolean }
  | { type: 'tool_result'; id: string; name: string; ok: boolean; result?: unknown; error?: string; repeat?: boolean; ms: number }
  | {
      type: 'draft_rejected';
      reason: 'deferral' | 'refusal' | 'freshness' | 'verdict' | 'tool_call' | 'no_research';
      detail?: string;
      query?: string;
    }
  | { type: 'calculation'; expression: string; result: string; exact: boolean; fraction?: string }
  /** The memory facts the answer drew on (it uses their words), said under it. */
  | { type: 'memory'; facts: string[] }
  | { type: 'message'; id: string; content: string }
  | { type: 'error'; code: string; message: string; fuelUsed?: number }
  | { type: 'done'; turnId: string; stats: TurnStats };

export type TurnEventType = TurnEvent['type'];
