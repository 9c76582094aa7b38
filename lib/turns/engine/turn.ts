import type { Awaitable } from '@/lib/shared/awaitable';
import type { ContextRuntime } from '@/lib/turns/context/layers';
import type { DecisionRecord } from '@/lib/contract/decisions';
import type { TurnEvent, TurnStats } from '@/lib/contract/events';
import { hasErrorCode, HearthError, isHearthError } from '@/lib/shared/errors';
import type { ThinkingMode } from '@/lib/models/thinking';
import type { ChatMessage, ModelClient } from '@/lib/models/types';
import type { ToolRegistry } from '@/lib/tools/registry';
import type { ToolDeps } from '@/lib/tools/types';
import type { AttachedTableRef } from '@/lib/data/tables/tables';
import { looksLikeArithmetic } from './arithmetic';
import { DEFAULT_BUDGET, TurnBudget, type BudgetLimits } from './budget';
import { calculateFirst } from './calculate-first';
import type { Classifier } from './classifier';
import { mayAskFigure, queryFirst } from './query-first';
import { askFreshness, checkDraft, recordAcceptance } from './check-draft';
import type { Findings } from './compiled';
import { answerWithoutTools } from './final-answer';
import { RepeatLedger } from './repeat-ledger';
import { callsOf, modelRound } from './model-round';
import { LAST_ROUND_NOTE, TOOLS_OFF_NOTE } from './prompts';
import { stripToolMarkup } from './salvage';
import type { StepJournal } from './step-journal';
import { runToolCalls } from './tool-calls';
import { TurnIO, type ApprovalAnswer } from './turn-io';

/**
 * One turn: rounds of context → model → tools → gate, until a draft passes the gate.
 * Plain TypeScript with every dependency passed in, so tests drive it with a scripted model.
 * The engine emits events as things happen and returns the outcome; the caller stores the
 * answer and emits `message`/`error` and `done`.
 *
 * runTurn is the loop; each step is a module of its own that takes the turn's TurnIO (the
 * model, events, stats) and returns what it decided: calculate-first.ts (program-decided
 * arithmetic), model-round.ts (one round's call and its retries), tool-calls.ts (running the
 * calls), check-draft.ts (the gate and the freshness check) and final-answer.ts (the round
 * without tools, and the answer compiled from the findings).
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
  /** "Ask the model about every answer": the verdict judges every draft the free layer does not set aside (gate.ts). */
  judgeEveryAnswer: boolean;
};

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  maxRounds: 6,
  maxGates: 2,
  roundMaxTokens: 2400,
  toolResultMaxBytes: 14_000,
  budget: DEFAULT_BUDGET,
  judgeEveryAnswer: true,
};

/** Repeats after which tools are no longer offered in this turn. */
const MAX_REPEATS = 2;

export type EngineDeps = {
  model: ModelClient;
  tools: ToolRegistry;
  toolDeps: ToolDeps;
  context: ContextRuntime;
  steps: StepJournal;
  emit: (event: TurnEvent) => void;
  now: () => number;
  signal: AbortSignal;
  /** A research tool is offered and its host is not resting. */
  researchAvailable: () => Awaitable<boolean>;
  /**
   * Side calls (decide steps) have a model slot of their own, so the freshness check can run
   * beside the first round. With one slot it would queue in front of the round the user is
   * waiting for and overwrite the conversation's cache: it then runs only when the gate needs it.
   */
  parallelSideCalls?: boolean;
  /** Thinking asked of the conversation's calls; side calls never think (lib/models/pool.ts). */
  thinking?: ThinkingMode;
  /** The thread's sampling, as llama-server's fields (temperature, top_p…), for the calls that write its reply. */
  sampling?: Record<string, number>;
  /** The model sees images (the server has a projector): images tools give back are sent as image parts. */
  vision?: boolean;
  /** The tables attached on the question's branch, newest first: a question for a figure from one is answered by a planned query. */
  tables?: AttachedTableRef[];
  /** The gate's classifier; the shipped one by default (lib/turns/engine/classifier.ts). */
  classifier?: Classifier;
  /** The user's answer to a call that asks first (see TurnIO.approve). */
  awaitApproval?: (request: { callId: string; server: string; tool: string }, signal: AbortSignal) => Promise<ApprovalAnswer>;
  config?: Partial<EngineConfig>;
};

export type TurnInput = { question: string; earlierAnswers: string[] };

export type TurnOutcome =
  | { status: 'done'; content: string; stats: TurnStats; diagnostics: string[] }
  | { status: 'error'; code: string; message: string; partial: string; stats: TurnStats; diagnostics: string[] }
  | { status: 'cancelled'; partial: string; stats: TurnStats; diagnostics: string[] };

export async function runTurn(input: TurnInput, deps: EngineDeps): Promise<TurnOutcome> {
  const config = { ...DEFAULT_ENGINE_CONFIG, ...deps.config };
  const { context, tools } = deps;
  const io = new TurnIO({ ...deps, budget: new TurnBudget(config.budget) });
  const ledger = new RepeatLedger();
  const findings: Findings = { gathered: [], calculation: null, forGate: [] };
  /** What this turn adds after the prompt: tool calls and results, notes. The drafts set aside never. */
  const turnMessages: ChatMessage[] = [];
  const freshnessAbort = new AbortController();
  let freshness: Promise<DecisionRecord | null> | null = null;
  const ended = (outcome: TurnOutcome): TurnOutcome => {
    freshnessAbort.abort();
    return outcome;
  };

  try {
    const tables = deps.tables ?? [];
    if (mayAskFigure(input.question, tables)) {
      const queried = await queryFirst(io, input.question, context, tables, deps.toolDeps);
      if (queried) {
        findings.forGate.push(queried.forGate);
        turnMessages.push(queried.note);
      }
    }
    if (!turnMessages.length && looksLikeArithmetic(input.question)) {
      const calculated = await calculateFirst(io, input.question, context);
      if (calculated) {
        findings.calculation = calculated.calculation;
        findings.forGate.push(calculated.forGate);
        turnMessages.push(calculated.note);
      }
    }
    // With a side slot, freshness goes beside the first round, once the server has begun to
    // answer it: sent before, it would be processed first and hold back the words the user waits
    // for. With one slot, freshness is asked only when the gate needs it.
    const freshnessCheck = () => askFreshness(io, input.question, context, freshnessAbort.signal);
    const freshnessBeside =
      deps.parallelSideCalls && (await deps.researchAvailable()) && !findings.calculation
        ? () => void (freshness ??= freshnessCheck())
        : undefined;

    // The view is built once: every round of the turn starts with the same prompt and only adds to it.
    const view = await context.view();
    let toolsRefused = false;
    let forceTools = false;
    let gates = 0;
    let noResearchNudges = 0;
    let toolsOffNoted = false;

    for (let round = 0; round < config.maxRounds; round++) {
      io.stats.rounds = round + 1;
      const last = round === config.maxRounds - 1;
      if (last) turnMessages.push({ role: 'user', content: LAST_ROUND_NOTE });
      else if (ledger.repeats >= MAX_REPEATS && !toolsOffNoted) {
        turnMessages.push({ role: 'user', content: TOOLS_OFF_NOTE });
        toolsOffNoted = true;
      }
      const allowTools = !last && ledger.repeats < MAX_REPEATS;
      io.emit({ type: 'status', stage: round === 0 ? 'thinking' : 'writing' });
      const outcome = await modelRound(io, {
        view,
        turnMessages,
        tools,
        toolsRefused,
        allowTools,
        required: forceTools && allowTools,
        maxTokens: config.roundMaxTokens,
        onOutput: round === 0 ? freshnessBeside : undefined,
      });
      toolsRefused = outcome.toolsRefused;
      forceTools = false;

      const calls = callsOf(outcome, round);
      if (calls.length > 0) {
        // Text written before a call is thinking aloud, not the answer.
        if (io.partial.trim()) io.emit({ type: 'draft_rejected', reason: 'tool_call' });
        io.partial = '';
        const ran = await runToolCalls(io, calls, {
          tools,
          toolDeps: deps.toolDeps,
          ledger,
          resultMaxBytes: config.toolResultMaxBytes,
          reasoning: outcome.result.reasoning.trim(),
          vision: deps.vision,
        });
        turnMessages.push(...ran.messages);
        findings.forGate.push(...ran.forGate);
        findings.gathered.push(...ran.gathered);
        continue;
      }

      const draft = stripToolMarkup(outcome.result.content);
      if (!draft) return ended(done(io, await answerWithoutTools(io, view, findings, config.roundMaxTokens)));
      if (gates < config.maxGates && !last) {
        const verdict = await checkDraft(io, {
          question: input.question,
          draft,
          findings,
          earlierAnswers: input.earlierAnswers,
          researchAvailable: !toolsRefused && (await deps.researchAvailable()),
          noResearchNudges,
          context,
          freshness: () => (freshness ??= freshnessCheck()),
          classifier: deps.classifier,
          judgeEveryAnswer: config.judgeEveryAnswer,
        });
        if (!verdict.pass) {
          gates++;
          if (verdict.reason === 'no_research') noResearchNudges++;
          turnMessages.push({ role: 'user', content: verdict.nudge });
          forceTools = verdict.forceTools;
          continue;
        }
      } else await recordAcceptance(io, { judge: 'none', why: 'checks_spent' }, context);
      return ended(done(io, draft));
    }
    throw new HearthError('model_error', 'The turn ended without an answer.');
  } catch (err) {
    return ended(failed(io, err));
  }
}

function done(io: TurnIO, content: string): TurnOutcome {
  // Stopped while the last words arrived (Stop, or a disk that filled): that ending wins.
  io.signal.throwIfAborted();
  return { status: 'done', content, stats: io.finish(), diagnostics: io.diagnostics };
}

/** How a turn that threw ends: stopped by the user, stopped for a reason (the disk filled), or failed. */
function failed(io: TurnIO, err: unknown): TurnOutcome {
  const { partial, diagnostics, signal } = io;
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (isHearthError(reason) && reason.code !== 'cancelled') {
    return { status: 'error', code: reason.code, message: reason.message, partial, stats: io.finish(), diagnostics };
  }
  if (signal.aborted || hasErrorCode(err, 'cancelled')) return { status: 'cancelled', partial, stats: io.finish(), diagnostics };
  const e = isHearthError(err) ? err : new HearthError('internal', `The turn failed: ${(err as Error)?.message ?? String(err)}`);
  return { status: 'error', code: e.code, message: e.message, partial, stats: io.finish(), diagnostics };
}
