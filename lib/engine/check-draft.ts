import type { ContextRuntime } from '@/lib/context/layers';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { hasErrorCode } from '@/lib/errors';
import type { Findings } from './compiled';
import { freshnessStep, runGate, verdictStep, type GateOutcome } from './gate';
import type { TurnIO } from './turn-io';

/**
 * Freshness depends only on the question, so it runs on a forked context and can go beside
 * the first round; its decision joins the turn's context when it arrives. It fails open: a
 * check that could not run (the budget) is no objection.
 */
export function askFreshness(io: TurnIO, question: string, context: ContextRuntime, stop: AbortSignal): Promise<DecisionRecord | null> {
  const child = context.fork();
  return io
    .decide(freshnessStep, `Question:\n${question}`, child, AbortSignal.any([io.signal, stop]))
    .then((record) => {
      context.join(child);
      return record;
    })
    .catch((err) => {
      if (hasErrorCode(err, 'budget_exhausted')) io.diagnostics.push('freshness check skipped: budget');
      return null;
    });
}

export type DraftCheck = {
  question: string;
  draft: string;
  findings: Findings;
  earlierAnswers: string[];
  researchAvailable: boolean;
  noResearchNudges: number;
  context: ContextRuntime;
  /** The freshness record, asked now if it was not asked beside the first round. */
  freshness: () => Promise<DecisionRecord | null>;
};

/**
 * The gate on a draft (see gate.ts). A draft set aside is announced with its reason; the
 * caller sends the nudge, never the draft: a model shown its own deferral writes it again.
 */
export async function checkDraft(io: TurnIO, check: DraftCheck): Promise<GateOutcome> {
  io.emit({ type: 'status', stage: 'checking' });
  const outcome = await runGate({
    question: check.question,
    draft: check.draft,
    toolResults: check.findings.forGate,
    earlierAnswers: check.earlierAnswers,
    researchAvailable: check.researchAvailable,
    calculationRan: check.findings.calculation !== null,
    noResearchNudges: check.noResearchNudges,
    freshness: check.freshness,
    verdict: (verdictInput) => io.decide(verdictStep, verdictInput, check.context),
  });
  if (!outcome.pass) {
    io.stats.gateNudges++;
    io.emit({
      type: 'draft_rejected',
      reason: outcome.reason,
      ...(outcome.detail ? { detail: outcome.detail } : {}),
      ...(outcome.query ? { query: outcome.query } : {}),
    });
  }
  return outcome;
}
