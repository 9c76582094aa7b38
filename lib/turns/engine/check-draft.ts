import type { ContextRuntime } from '@/lib/turns/context/layers';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { hasErrorCode } from '@/lib/shared/errors';
import type { Findings } from './compiled';
import { freshnessStep, runGate, verdictStep, type Acceptance, type GateOutcome } from './gate';
import type { TurnIO } from './turn-io';
import { deferralClassifier, type Classifier, type Judgement } from './classifier';

/** What the gate did with the classifier's judgement, in words (a pattern's agreement changes it). */
export function outcomeText(outcome: Judgement['outcome'], patternMatched: boolean, judgeEveryAnswer = true): string {
  if (!judgeEveryAnswer) {
    if (outcome === 'deferral') return 'a deferral: set aside';
    if (outcome === 'answer')
      return patternMatched
        ? 'clearly an answer, though a deferral pattern matched: the verdict decides'
        : 'clearly an answer: no verdict asked';
    return patternMatched ? 'unsure, and a deferral pattern matched: set aside' : 'unsure: the verdict decides';
  }
  if (outcome === 'deferral')
    return patternMatched ? 'a deferral, and a pattern agrees: set aside' : 'a deferral, but no pattern agrees: the verdict decides';
  return patternMatched ? 'a pattern matched, but the classifier does not agree: the verdict decides' : 'not a deferral';
}

/** The classifier's judgement as a decision record: its score as the probability, its own source. */
function classifierRecord(
  judged: Judgement,
  patternMatched: boolean,
  judgeEveryAnswer: boolean,
  version: string,
  at: number,
): DecisionRecord {
  return {
    stepId: 'deferral_classifier',
    at,
    modelId: version,
    source: 'classifier',
    answers: {
      is_deferral: { kind: 'boolean', value: judged.p >= 0.5, p: judged.p },
      outcome: { kind: 'text', value: outcomeText(judged.outcome, patternMatched, judgeEveryAnswer) },
    },
  };
}

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
  /** The gate's classifier (the shipped one unless a test hands in its own). */
  classifier?: Classifier;
  /** "Ask the model about every answer" (Settings → Checks). */
  judgeEveryAnswer: boolean;
};

/** Which judge accepted a draft, in words a person reads in the Checks panel. */
export function acceptanceText(by: Acceptance): { acceptedBy: string; matched?: string } {
  switch (by.judge) {
    case 'verdict':
      return { acceptedBy: `the verdict (the model read it: it answers, ${Math.round(by.p * 100)}% sure)` };
    case 'results':
      return { acceptedBy: 'the rule: it uses this turn’s tool results', matched: by.matched.slice(0, 8).join(', ') };
    case 'classifier':
      return {
        acceptedBy: `the classifier alone (deferral ${Math.round(by.p * 100)}%): “Ask the model about every answer” is off`,
      };
    case 'none':
      return {
        acceptedBy: {
          verdict_failed: 'no judge: the verdict could not run, and a check that fails lets the answer through',
          nudge_spent: 'no judge: there is nothing to search with, and the one nudge to answer was spent',
          no_research: 'no judge: there is nothing to search with, and “Ask the model about every answer” is off',
          checks_spent: 'no judge: this turn’s checks were spent',
        }[by.why],
      };
  }
}

/** Records which judge accepted the draft: a program decision, shown in the Checks, never told to the model. */
export async function recordAcceptance(io: TurnIO, by: Acceptance, context: ContextRuntime): Promise<void> {
  const { acceptedBy, matched } = acceptanceText(by);
  await io.judge(
    'acceptance',
    () => ({
      stepId: 'acceptance',
      at: io.now(),
      modelId: 'hearth',
      source: 'program',
      answers: {
        accepted_by: { kind: 'text', value: acceptedBy },
        ...(matched ? { matched: { kind: 'text' as const, value: matched } } : {}),
      },
    }),
    context,
  );
}

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
    judgeEveryAnswer: check.judgeEveryAnswer,
    verdict: (verdictInput) => io.decide(verdictStep, verdictInput, check.context),
    classify: async (draft, patternMatched) => {
      const classifier = check.classifier ?? deferralClassifier();
      const judged = classifier.judge(draft);
      await io.judge(
        'deferral_classifier',
        () => classifierRecord(judged, patternMatched, check.judgeEveryAnswer, classifier.version, io.now()),
        check.context,
      );
      return judged;
    },
  });
  if (outcome.pass) await recordAcceptance(io, outcome.by, check.context);
  else {
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
