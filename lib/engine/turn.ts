import { withText } from '@/lib/llm/content';
import type { ContextRuntime } from '@/lib/context/layers';
import type { DecideStep } from '@/lib/decide/decide';
import { saidYes, type DecisionRecord, type Question } from '@/lib/contract/decisions';
import { hasErrorCode, HearthError, isHearthError } from '@/lib/errors';
import type { ChatMessage, ChatRequest, ChatResult, ModelClient, ToolCallRequest } from '@/lib/llm/types';
import { capResultJson, type ToolRegistry } from '@/lib/tools/registry';
import type { ToolDeps, ToolResult } from '@/lib/tools/types';
import { arithmeticStep, looksLikeArithmetic, planAndCompute, type PlanOutcome } from './arithmetic';
import { DEFAULT_BUDGET, TurnBudget, type BudgetLimits } from './budget';
import { EMPTY_STATS, type TurnEvent, type TurnStats } from '@/lib/contract/events';
import { freshnessStep, runGate, verdictStep } from './gate';
import { RepeatLedger } from './ledger';
import { compileAnswer, hasGathered, resultsAsText, type Gathered, type GatheredCalculation } from './compiled';
import { answerNowNote, exactResultNote, LAST_ROUND_NOTE, TOOLS_OFF_NOTE } from './prompts';
import { MarkupHoldback, salvageToolCalls, stripToolMarkup } from './salvage';
import type { StepLedger } from './steps';

/**
 * One turn: rounds of context → model → tools → gate, until a draft passes the gate.
 * Plain TypeScript with every dependency passed in, so tests drive it with a scripted model.
 * The engine emits events as things happen and returns the outcome; the caller stores the
 * answer and emits `message`/`error` and `done`.
 */

export type EngineConfig = {
  /** Rounds of model calls; the last one offers no tools. */
  maxRounds: number;
  /** Drafts the gate may send back per turn. */
  maxGates: number;
  /** A round's draft is the answer, so it gets an answer's room. */
  roundMaxTokens: number;
  /** Tool results are capped so one page cannot fill the context. */
  toolResultMaxBytes: number;
  budget: BudgetLimits;
};

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  maxRounds: 6,
  maxGates: 2,
  roundMaxTokens: 2400,
  toolResultMaxBytes: 14_000,
  budget: DEFAULT_BUDGET,
};

/** Repeats after which tools are no longer offered in this turn. */
const MAX_REPEATS = 2;

export type EngineDeps = {
  model: ModelClient;
  tools: ToolRegistry;
  toolDeps: ToolDeps;
  context: ContextRuntime;
  steps: StepLedger;
  emit: (event: TurnEvent) => void;
  now: () => number;
  signal: AbortSignal;
  /** A research tool is offered and its host is not resting. */
  researchAvailable: () => boolean;
  /**
   * Side calls (decide steps) have a model slot of their own, so the freshness check can run
   * beside the first round. With one slot it would queue in front of the round the user is
   * waiting for and overwrite the conversation's cache: it then runs only when the gate needs it.
   */
  parallelSideCalls?: boolean;
  config?: Partial<EngineConfig>;
};

export type TurnInput = { question: string; earlierAnswers: string[] };

export type TurnOutcome =
  | { status: 'done'; content: string; stats: TurnStats; diagnostics: string[] }
  | { status: 'error'; code: string; message: string; partial: string; stats: TurnStats; diagnostics: string[] }
  | { status: 'cancelled'; partial: string; stats: TurnStats; diagnostics: string[] };

function validJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export async function runTurn(input: TurnInput, deps: EngineDeps): Promise<TurnOutcome> {
  const config = { ...DEFAULT_ENGINE_CONFIG, ...deps.config };
  const { steps, context, signal, tools } = deps;
  const started = deps.now();
  const budget = new TurnBudget(config.budget);
  const ledger = new RepeatLedger();
  const diagnostics: string[] = [];
  const stats: TurnStats = { ...EMPTY_STATS };
  // Events of steps completed before a restart are already in the log: do not send them twice.
  const emit = (event: TurnEvent) => {
    if (!steps.replaying) deps.emit(event);
  };
  /** What the user has seen of the current draft: the latest model call's text (each call starts afresh). */
  // Stryker disable next-line StringLiteral: equivalent, side calls fail open, so every way to the answer or an error passes callModel, which empties it first
  let partial = '';
  const finish = () => {
    stats.fuelUsed = budget.fuelUsed;
    stats.ms = deps.now() - started;
    return stats;
  };

  /** Tokens the conversation's calls generated and how long the server took, by its own timings. */
  const generated = { tokens: 0, ms: 0 };
  /** The model behind the budget: the quota and fuel are charged before each call. */
  const metered: ModelClient = {
    health: () => deps.model.health(),
    async chat(request, options) {
      budget.chargeModelCall();
      stats.modelCalls = budget.modelCalls;
      const t0 = deps.now();
      const onDelta = options?.onDelta;
      try {
        const result = await deps.model.chat(request, {
          signal: options?.signal ?? signal,
          onDelta: onDelta
            ? (text) => {
                stats.firstTokenMs ??= deps.now() - started;
                onDelta(text);
              }
            : undefined,
        });
        stats.promptTokens += result.usage.promptTokens;
        stats.completionTokens += result.usage.completionTokens;
        const t = result.timings;
        if (t?.predictedTokens && t.predictedMs && request.lane === 'conversation') {
          generated.tokens += t.predictedTokens;
          generated.ms += t.predictedMs;
          stats.tokensPerSecond = Math.round((generated.tokens / generated.ms) * 10_000) / 10;
        }
        return result;
      } finally {
        stats.modelMs += deps.now() - t0;
      }
    },
  };

  async function decide<Q extends Record<string, Question>, T extends string>(
    step: DecideStep<Q, T>,
    stepInput: string,
    runtime: ContextRuntime,
    stepSignal: AbortSignal = signal,
  ): Promise<DecisionRecord> {
    const { value: record, replayed } = await steps.step(`decision:${step.id}`, () =>
      step.run({ model: metered, input: stepInput, signal: stepSignal, now: deps.now }),
    );
    // A decision replayed from the ledger came back with the checkpoint: onDecision does not fire again.
    if (!replayed) {
      await runtime.recordDecision(record);
      emit({ type: 'decision', record });
    }
    return record;
  }

  /** One streamed call on the conversation's slot; markup is held back from the user. */
  async function callModel(request: ChatRequest): Promise<ChatResult> {
    const { value } = await steps.step('model', async () => {
      partial = '';
      const holdback = new MarkupHoldback();
      const send = (text: string) => {
        if (!text) return;
        partial += text;
        emit({ type: 'delta', text });
      };
      const result = await metered.chat({ ...request, lane: 'conversation' }, { signal, onDelta: (t) => send(holdback.push(t)) });
      send(holdback.flush());
      return result;
    });
    return value;
  }

  const turnMessages: ChatMessage[] = [];
  const gateResults: string[] = [];
  /** This turn's successful tool results and calculation: what an answer can be compiled from. */
  const gathered: Gathered[] = [];
  let calculation: GatheredCalculation | null = null;
  const freshnessAbort = new AbortController();
  let freshness: Promise<DecisionRecord | null> | null = null;
  /** A server started with --no-jinja refuses every request with tools: stop sending them. */
  let toolsRefused = false;
  const offeredTools = () => (toolsRefused ? [] : tools.schemas());

  async function runCalls(calls: ToolCallRequest[]): Promise<void> {
    emit({ type: 'status', stage: 'searching' });
    type Planned = { call: ToolCallRequest; key: string; repeatOf?: Promise<{ ok: boolean; content: string }> };
    const planned: Planned[] = [];
    const inBatch = new Map<string, Promise<{ ok: boolean; content: string }>>();
    const runs: Promise<unknown>[] = [];
    const contents = new Map<string, string>();

    for (const call of calls) emit({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
    for (const call of calls) {
      const key = ledger.key(call.name, call.arguments);
      const earlier = ledger.lookup(call.name, call.arguments);
      if (earlier) {
        ledger.repeats++;
        const content = ledger.repeatMessage(earlier);
        contents.set(call.id, content);
        emit({ type: 'tool_result', id: call.id, name: call.name, ok: earlier.ok, repeat: true, result: JSON.parse(content), ms: 0 });
        continue;
      }
      const first = inBatch.get(key);
      if (first) {
        ledger.repeats++;
        planned.push({ call, key, repeatOf: first });
        continue;
      }
      const tool = tools.get(call.name);
      const run = (async () => {
        if (tool) budget.chargeToolRun(tool.cost, tool.name);
        const t0 = deps.now();
        // An invented tool name is answered like any failed call: an {error} naming the real ones.
        const { value: result } = await steps.step<ToolResult>('tool', () => tools.run(call.name, call.arguments, deps.toolDeps, signal));
        const ms = deps.now() - t0;
        stats.toolCalls++;
        const content = result.ok ? capResultJson(result.data, config.toolResultMaxBytes) : JSON.stringify({ error: result.error });
        ledger.remember(call.name, call.arguments, { name: call.name, ok: result.ok, content });
        // The verdict's input cuts each result to its length (verdictInput).
        gateResults.push(result.ok ? `${call.name}: ${content}` : `${call.name} failed: ${result.error}`);
        if (result.ok) gathered.push({ name: call.name, arguments: call.arguments, data: JSON.parse(content) });
        emit({
          type: 'tool_result',
          id: call.id,
          name: call.name,
          ok: result.ok,
          ...(result.ok ? { result: JSON.parse(content) } : { error: result.error }),
          ms,
        });
        return { ok: result.ok, content };
      })();
      inBatch.set(key, run);
      planned.push({ call, key });
      runs.push(run.then((r) => contents.set(call.id, r.content)));
    }
    // Independent calls run in parallel; a failure to run (budget, cancel) ends the turn.
    await Promise.all(runs);
    for (const p of planned) {
      if (!p.repeatOf) continue;
      const r = await p.repeatOf;
      const content = ledger.repeatMessage({ name: p.call.name, ok: r.ok, content: r.content });
      contents.set(p.call.id, content);
      emit({ type: 'tool_result', id: p.call.id, name: p.call.name, ok: r.ok, repeat: true, result: JSON.parse(content), ms: 0 });
    }
    // Stryker disable next-line StringLiteral: equivalent, every call's content is set above (a run that failed ended the turn)
    for (const call of calls)
      turnMessages.push({ role: 'tool', tool_call_id: call.id, content: contents.get(call.id) ?? '{"error":"no result"}' });
  }

  /** Program-decided arithmetic: the program fixes the steps, the model writes only the plan. */
  async function planArithmetic(): Promise<void> {
    emit({ type: 'status', stage: 'checking' });
    const record = await decide(arithmeticStep, input.question, context);
    if (!saidYes(record.answers.is_arithmetic)) return;
    const { value: plan } = await steps.step<PlanOutcome>('plan', () => planAndCompute(metered, input.question, signal));
    if (!plan.ok) {
      diagnostics.push(`calculation skipped: ${plan.diagnostic}`);
      return;
    }
    const c = plan.calculation;
    calculation = { expression: c.expression, result: c.fraction ? `${c.result} (exactly ${c.fraction})` : c.result };
    emit({
      type: 'calculation',
      expression: c.expression,
      result: c.result,
      exact: c.exact,
      ...(c.fraction ? { fraction: c.fraction } : {}),
    });
    turnMessages.push({ role: 'user', content: exactResultNote(calculation.result, c.expression) });
    gateResults.push(`calculation: ${c.expression} = ${c.result}`);
  }

  /** Freshness depends only on the question; it runs on a forked context so it can go beside a round. */
  function askFreshness(): Promise<DecisionRecord | null> {
    const child = context.fork();
    return decide(freshnessStep, `Question:\n${input.question}`, child, AbortSignal.any([signal, freshnessAbort.signal]))
      .then((record) => {
        context.join(child);
        return record;
      })
      .catch((err) => {
        if (hasErrorCode(err, 'budget_exhausted')) diagnostics.push('freshness check skipped: budget');
        return null;
      });
  }

  /**
   * One round's model call with llama.cpp's failure modes handled: a server without --jinja
   * (tools dropped for the turn), a tool call cut off or an older server's parse error, text
   * under "required" (retried with tool_choice "none"), and a reply with only reasoning
   * (retried with thinking off). Tools stay in every request, so the prompt's prefix does not
   * change; "none" is how they are withheld. The loop ends: each retry turns something off
   * for good (the tools offered, tool calls allowed, or thinking), and only while it is on.
   */
  async function modelRound(
    view: ChatMessage[],
    options: { allowTools: boolean; required: boolean },
  ): Promise<{ result: ChatResult; toolsAllowed: boolean }> {
    const { required } = options;
    let { allowTools } = options;
    let thinkingOff = false;
    for (;;) {
      const offered = offeredTools();
      const toolChoice = offered.length ? (!allowTools ? 'none' : required ? 'required' : 'auto') : undefined;
      let result: ChatResult;
      try {
        result = await callModel({
          messages: [...view, ...turnMessages],
          tools: offered,
          toolChoice,
          maxTokens: config.roundMaxTokens,
          extra: thinkingOff ? { chat_template_kwargs: { enable_thinking: false } } : undefined,
        });
      } catch (err) {
        if (offered.length && isHearthError(err) && err.code === 'model_error' && /requires --jinja/i.test(err.message)) {
          toolsRefused = true;
          diagnostics.push('llama-server runs without --jinja, so no tools can be offered; start it with --jinja');
          continue;
        }
        // Older llama-servers answer 500 when a tool call's JSON was cut by max_tokens.
        if (
          allowTools &&
          isHearthError(err) &&
          err.code === 'model_error' &&
          /tool.?call/i.test(err.message) &&
          /pars/i.test(err.message)
        ) {
          allowTools = false;
          emit({ type: 'draft_rejected', reason: 'tool_call', detail: 'the tool call was cut off; answering without tools' });
          continue;
        }
        throw err;
      }
      const toolsAllowed = allowTools && offered.length > 0;
      const cutCall = result.finishReason === 'length' && result.toolCalls.some((c) => !validJson(c.arguments));
      const requiredButText = required && toolsAllowed && result.toolCalls.length === 0 && salvageToolCalls(result.content).length === 0;
      if (toolsAllowed && (cutCall || requiredButText)) {
        allowTools = false;
        if (partial)
          emit({ type: 'draft_rejected', reason: 'tool_call', detail: cutCall ? 'the tool call was cut off' : 'no tool was called' });
        continue;
      }
      if (!result.content.trim() && result.toolCalls.length === 0 && result.reasoning.trim() && !thinkingOff) {
        thinkingOff = true;
        continue;
      }
      return { result, toolsAllowed };
    }
  }

  /**
   * A round without tools gave nothing usable (only tool markup, only reasoning, or nothing).
   * Ask once more with this turn's results as plain text (no tool-call messages for the
   * template to continue) and a firm note; if that is empty too, the program compiles the
   * answer from what the tools found. Only a turn that found nothing ends in an error.
   */
  async function answerWithoutTools(view: ChatMessage[]): Promise<string> {
    emit({ type: 'status', stage: 'writing' });
    const note = answerNowNote(resultsAsText(gathered, calculation));
    const at = view.findLastIndex((m) => m.role === 'user');
    const messages = view.map((m, i) =>
      i === at && m.role === 'user' ? { role: 'user' as const, content: withText(m.content, { after: note }) } : m,
    );
    if (at < 0) messages.push({ role: 'user', content: note });
    try {
      const retry = await callModel({
        messages,
        maxTokens: config.roundMaxTokens,
        extra: { chat_template_kwargs: { enable_thinking: false } },
      });
      const text = stripToolMarkup(retry.content);
      if (text) return text;
    } catch (err) {
      if (signal.aborted || hasErrorCode(err, 'cancelled') || !hasGathered(gathered, calculation)) throw err;
      diagnostics.push(`the last answer attempt failed (${(err as Error).message}); compiled from the tool results`);
    }
    if (!hasGathered(gathered, calculation)) throw new HearthError('model_error', 'The model returned an empty answer.');
    stats.compiled = true;
    const compiled = compileAnswer(gathered, calculation);
    partial = compiled;
    emit({ type: 'delta', text: compiled });
    return compiled;
  }

  try {
    if (looksLikeArithmetic(input.question)) await planArithmetic();
    // With a side slot, freshness goes beside the first round; with one slot, only when the gate needs it.
    if (deps.parallelSideCalls && deps.researchAvailable() && !calculation) freshness = askFreshness();

    // The view is built once: every round of the turn starts with the same prompt and only adds to it.
    const view = await context.view();
    let forceTools = false;
    let gates = 0;
    let noResearchNudges = 0;
    let toolsOffNoted = false;

    for (let round = 0; round < config.maxRounds; round++) {
      stats.rounds = round + 1;
      const last = round === config.maxRounds - 1;
      if (last) turnMessages.push({ role: 'user', content: LAST_ROUND_NOTE });
      else if (ledger.repeats >= MAX_REPEATS && !toolsOffNoted) {
        turnMessages.push({ role: 'user', content: TOOLS_OFF_NOTE });
        toolsOffNoted = true;
      }
      const allowTools = !last && ledger.repeats < MAX_REPEATS;
      emit({ type: 'status', stage: round === 0 ? 'thinking' : 'writing' });
      const { result, toolsAllowed } = await modelRound(view, { allowTools, required: forceTools && allowTools });
      forceTools = false;

      // A round that cut a call off was retried without tools, so every call here is whole.
      let calls = toolsAllowed ? result.toolCalls : [];
      if (calls.length === 0 && toolsAllowed) calls = salvageToolCalls(result.content);
      if (calls.length > 0) {
        // Text written before a call is thinking aloud, not the answer.
        if (partial.trim()) emit({ type: 'draft_rejected', reason: 'tool_call' });
        partial = '';
        const named = calls.map((c, i) => ({ ...c, id: c.id || `call_${round}_${i}` }));
        turnMessages.push({
          role: 'assistant',
          content: null,
          tool_calls: named.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
        });
        await runCalls(named);
        continue;
      }

      const draft = stripToolMarkup(result.content);
      if (!draft) return done(await answerWithoutTools(view));
      if (gates < config.maxGates && !last) {
        emit({ type: 'status', stage: 'checking' });
        const outcome = await runGate({
          question: input.question,
          draft,
          toolResults: gateResults,
          earlierAnswers: input.earlierAnswers,
          researchAvailable: deps.researchAvailable() && !toolsRefused,
          // Stryker disable next-line ConditionalExpression: equivalent, a calculation is also among the tool results the gate sees
          calculationRan: calculation !== null,
          noResearchNudges,
          freshness: () => (freshness ??= askFreshness()),
          verdict: (verdictInput) => decide(verdictStep, verdictInput, context),
        });
        if (!outcome.pass) {
          gates++;
          stats.gateNudges++;
          // Stryker disable next-line UpdateOperator: equivalent, the gate only asks whether the count is still 0
          if (outcome.reason === 'no_research') noResearchNudges++;
          emit({
            type: 'draft_rejected',
            reason: outcome.reason,
            ...(outcome.detail ? { detail: outcome.detail } : {}),
            ...(outcome.query ? { query: outcome.query } : {}),
          });
          // The draft itself is never appended: a model shown its own deferral writes it again.
          turnMessages.push({ role: 'user', content: outcome.nudge });
          forceTools = outcome.forceTools;
          continue;
        }
      }
      return done(draft);
    }
    throw new HearthError('model_error', 'The turn ended without an answer.');
  } catch (err) {
    freshnessAbort.abort();
    // Stopped from outside for a reason other than the user's Stop (the disk filled): an error with that reason.
    const reason: unknown = signal.aborted ? signal.reason : undefined;
    if (isHearthError(reason) && reason.code !== 'cancelled') {
      return { status: 'error', code: reason.code, message: reason.message, partial, stats: finish(), diagnostics };
    }
    if (signal.aborted || hasErrorCode(err, 'cancelled')) {
      return { status: 'cancelled', partial, stats: finish(), diagnostics };
    }
    const e = isHearthError(err) ? err : new HearthError('internal', `The turn failed: ${(err as Error)?.message ?? String(err)}`);
    return { status: 'error', code: e.code, message: e.message, partial, stats: finish(), diagnostics };
  }

  function done(content: string): TurnOutcome {
    // Stopped while the last words arrived (Stop, or a disk that filled): that ending wins.
    signal.throwIfAborted();
    freshnessAbort.abort();
    return { status: 'done', content, stats: finish(), diagnostics };
  }
}
