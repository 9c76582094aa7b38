import type { ContextRuntime } from '@/lib/turns/context/layers';
import type { DecisionRecord, Question } from '@/lib/contract/decisions';
import { EMPTY_STATS, type TurnEvent, type TurnStats } from '@/lib/contract/events';
import type { DecideStep } from '@/lib/turns/decide/decide';
import type { ChatRequest, ChatResult, ModelClient } from '@/lib/models/types';
import type { TurnBudget } from './budget';
import { mergeFields, thinkingFields, type ThinkingMode } from '@/lib/models/thinking';
import { MarkupHoldback } from './salvage';
import type { StepJournal } from './step-journal';

export type TurnIODeps = {
  model: ModelClient;
  steps: StepJournal;
  emit: (event: TurnEvent) => void;
  now: () => number;
  signal: AbortSignal;
  budget: TurnBudget;
  /** Thinking asked of the conversation's calls (the thread's choice, or the Settings page's). */
  thinking?: ThinkingMode;
  /** The thread's sampling as llama-server's fields (temperature, top_p, top_k, min_p): for the conversation's calls only. */
  sampling?: Record<string, number>;
  /** Waits for the user's answer to a call that asks first (the registry's; none: every such call is denied). */
  awaitApproval?: (request: { callId: string; server: string; tool: string }, signal: AbortSignal) => Promise<ApprovalAnswer>;
};

export type ApprovalAnswer = 'allow' | 'always' | 'deny';

/**
 * What every step of a turn reaches the world through: the model (metered by the budget, its
 * tokens and time counted into the turn's stats), the event stream (silent while steps replay
 * after a restart), the step journal, and the words of the current draft the user has seen.
 * The steps (model-round, tool-calls, check-draft, final-answer) take it as their first
 * argument; what they decide comes back as their return value.
 */
export class TurnIO {
  readonly stats: TurnStats = { ...EMPTY_STATS };
  readonly diagnostics: string[] = [];
  /** What the user has seen of the current draft: the latest model call's text (each call starts afresh). */
  partial = '';
  /** The model behind the budget: the quota and fuel are charged before each call. */
  readonly model: ModelClient;
  readonly started: number;
  /** Tokens the conversation's calls generated and how long the server took, by its own timings. */
  private readonly generated = { tokens: 0, ms: 0 };

  constructor(private readonly deps: TurnIODeps) {
    this.started = deps.now();
    this.model = { health: () => deps.model.health(), chat: (request, options) => this.meteredChat(request, options) };
  }

  get signal(): AbortSignal {
    return this.deps.signal;
  }

  get steps(): StepJournal {
    return this.deps.steps;
  }

  get budget(): TurnBudget {
    return this.deps.budget;
  }

  now(): number {
    return this.deps.now();
  }

  /** Events of steps completed before a restart are already in the log: they are not sent twice. */
  emit(event: TurnEvent): void {
    if (!this.deps.steps.replaying) this.deps.emit(event);
  }

  /**
   * One streamed call on the conversation's slot; tool-call markup is held back from the user.
   * The model's thinking streams as `thinking` events, never as the draft, and a `thought`
   * event closes it (its time and tokens) when the answer or a tool call begins.
   * `onOutput` hears once that the server has begun to answer (its first streamed thinking or
   * text, or the whole reply when nothing streamed), and after a replayed call at once: a step
   * it starts then takes the same place in the ledger as before the restart.
   */
  async callModel(request: ChatRequest, onOutput?: () => void): Promise<ChatResult> {
    const { value, replayed } = await this.steps.step('model', async () => {
      this.partial = '';
      let holdback = new MarkupHoldback();
      let answering = false;
      const begun = () => {
        if (answering) return;
        answering = true;
        onOutput?.();
      };
      const thinking = new ThinkingClock(this);
      /** Answer deltas since the last retraction, and when the first came: what a retraction takes back. */
      let answerDeltas = 0;
      let answerSince: number | null = null;
      const firstTokenBefore = this.stats.firstTokenMs;
      const send = (text: string) => {
        if (!text) return;
        this.partial += text;
        this.emit({ type: 'delta', text });
      };
      const mode = this.deps.thinking ?? 'default';
      // The request's own fields win over the thread's (a retry turns thinking off). Its own
      // temperature too: the client sends extra fields last, so the thread's would otherwise replace it.
      const own = request.temperature !== undefined ? { temperature: request.temperature } : {};
      const chosen = { ...(mode === 'default' ? {} : thinkingFields(mode)), ...this.deps.sampling, ...own };
      const extra = Object.keys(chosen).length ? mergeFields(chosen, request.extra) : request.extra;
      const result = await this.model.chat(
        { ...request, lane: 'conversation', ...(extra ? { extra } : {}) },
        {
          signal: this.signal,
          onReasoning: (t) => {
            begun();
            thinking.add(t);
          },
          onRetract: () => {
            // What was shown as the answer was thinking: the draft starts again (the text comes back as thinking).
            holdback = new MarkupHoldback();
            this.partial = '';
            this.emit({ type: 'draft', text: '' });
            thinking.retracted(answerDeltas, answerSince ?? this.now());
            answerDeltas = 0;
            answerSince = null;
            // The first word of the answer is still to come.
            if (firstTokenBefore === undefined) delete this.stats.firstTokenMs;
          },
          onDelta: (t) => {
            begun();
            thinking.end();
            answerDeltas++;
            answerSince ??= this.now();
            send(holdback.push(t));
          },
        },
      );
      begun();
      thinking.end();
      send(holdback.flush());
      return result;
    });
    if (replayed) onOutput?.();
    return value;
  }

  /**
   * Asks the user before a call runs: the page shows a card, the turn waits for the answer
   * (a step of the ledger: once answered, a restart reads it back; unanswered, it is asked
   * again). True when the call may run.
   */
  async approve(request: { callId: string; server: string; tool: string; arguments: string }): Promise<boolean> {
    const { value } = await this.steps.step('approval', async () => {
      this.emit({ type: 'approval_needed', ...request });
      const answer: ApprovalAnswer = this.deps.awaitApproval ? await this.deps.awaitApproval(request, this.signal) : 'deny';
      const allow = answer !== 'deny';
      this.emit({ type: 'approval', callId: request.callId, allow, ...(answer === 'always' ? { always: true } : {}) });
      return allow;
    });
    return value;
  }

  /** Words Hearth itself puts in front of the user as the draft (a compiled answer). */
  show(text: string): void {
    this.partial = text;
    this.emit({ type: 'delta', text });
  }

  /** Runs a decide step once (a replay after a restart reads it back), records it and shows it. */
  async decide<Q extends Record<string, Question>, T extends string>(
    step: DecideStep<Q, T>,
    input: string,
    runtime: ContextRuntime,
    signal: AbortSignal = this.signal,
  ): Promise<DecisionRecord> {
    return this.recorded(step.id, () => step.run({ model: this.model, input, signal, now: this.deps.now }), runtime);
  }

  /** Records a judgement Hearth made itself (the classifier's), once, as decide steps are recorded and shown. */
  judge(stepId: string, make: () => DecisionRecord, runtime: ContextRuntime): Promise<DecisionRecord> {
    return this.recorded(stepId, async () => make(), runtime);
  }

  /** A decision made once (a replay after a restart reads it back), kept and shown. */
  private async recorded(stepId: string, make: () => Promise<DecisionRecord>, runtime: ContextRuntime): Promise<DecisionRecord> {
    const { value: record, replayed } = await this.steps.step(`decision:${stepId}`, make);
    // A decision replayed from the ledger came back with the checkpoint: onDecision does not fire again.
    if (!replayed) {
      await runtime.recordDecision(record);
      this.emit({ type: 'decision', record });
    }
    return record;
  }

  /** The turn's stats as it ends. */
  finish(): TurnStats {
    this.stats.fuelUsed = this.budget.fuelUsed;
    this.stats.ms = this.now() - this.started;
    return this.stats;
  }

  private async meteredChat(request: ChatRequest, options: Parameters<ModelClient['chat']>[1]): Promise<ChatResult> {
    const { budget, stats } = this;
    budget.chargeModelCall();
    stats.modelCalls = budget.modelCalls;
    const t0 = this.now();
    const onDelta = options?.onDelta;
    try {
      const result = await this.deps.model.chat(request, {
        ...options,
        signal: options?.signal ?? this.signal,
        onDelta: onDelta
          ? (text) => {
              stats.firstTokenMs ??= this.now() - this.started;
              onDelta(text);
            }
          : undefined,
      });
      stats.promptTokens += result.usage.promptTokens;
      stats.completionTokens += result.usage.completionTokens;
      const t = result.timings;
      if (t?.predictedTokens && t.predictedMs && request.lane === 'conversation') {
        this.generated.tokens += t.predictedTokens;
        this.generated.ms += t.predictedMs;
        stats.tokensPerSecond = Math.round((this.generated.tokens / this.generated.ms) * 10_000) / 10;
      }
      return result;
    } finally {
      stats.modelMs += this.now() - t0;
    }
  }
}

/**
 * One call's thinking as it streams: sent as `thinking` events, timed from its first token to
 * the answer's first (or the call's end), counted in tokens (llama-server streams one a chunk),
 * and closed with a `thought` event. The turn's stats add it up.
 */
class ThinkingClock {
  private startedAt: number | null = null;
  private tokens = 0;
  /** A retraction not yet given as thinking (its text arrives next, in one piece): its tokens and when it began. */
  private pending: { tokens: number; since: number } | null = null;

  constructor(private readonly io: TurnIO) {}

  add(text: string): void {
    if (!text) return;
    const { stats } = this.io;
    if (this.startedAt === null) {
      this.startedAt = this.pending?.since ?? this.io.now();
      stats.firstThinkingMs ??= this.startedAt - this.io.started;
    }
    this.tokens += this.pending?.tokens ?? 1;
    this.pending = null;
    this.io.emit({ type: 'thinking', text });
  }

  /** The text streamed since `since` as `deltas` answer tokens was thinking: it counts as that many, from then. */
  retracted(deltas: number, since: number): void {
    this.pending = { tokens: Math.max(1, deltas), since };
  }

  end(): void {
    if (this.startedAt === null) return;
    const ms = this.io.now() - this.startedAt;
    const { stats } = this.io;
    stats.thinkingTokens = (stats.thinkingTokens ?? 0) + this.tokens;
    stats.thinkingMs = (stats.thinkingMs ?? 0) + ms;
    this.io.emit({ type: 'thought', ms, tokens: this.tokens });
    this.startedAt = null;
    this.tokens = 0;
  }
}
