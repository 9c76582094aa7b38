import { defineDecideStep } from '@/lib/decide/decide';
import { saidYes, type DecisionRecord } from '@/lib/contract/decisions';
import type { Judgement } from './classifier';
import { freeCheck } from './deferral';
import { FRESHNESS_SYSTEM, NO_RESEARCH_NUDGE, researchNudge, VERDICT_SYSTEM, verdictInput } from './prompts';

/**
 * The gate decides whether a draft (a reply without tool calls) is an answer. Cheapest
 * first: the free regex checks and the classifier (classifier.ts, in-process), then freshness
 * (asked of the question alone, only when no tool ran), then the verdict. The classifier has
 * three outcomes: a deferral is set aside at once, as a pattern's is; clearly an answer skips
 * the verdict (a model call saved; freshness still asks whether it needed a search); unsure
 * leaves it to the verdict. A pattern's deferral that the classifier reads as clearly an answer
 * ("… Shall I check return trains too?" after the answer) goes to the verdict instead of being
 * set aside. Every model-based check fails open: a refusal or an error lets the draft through,
 * because a gate that fails closed turns a working turn into a loop.
 */

/** A verdict is a few tokens and the query a short search. */
const GATE_MAX_TOKENS = 96;

export const freshnessStep = defineDecideStep({
  id: 'freshness',
  system: FRESHNESS_SYSTEM,
  questions: {
    needs_fresh: { kind: 'boolean', instructions: 'does answering need information that changes over time or happened recently?' },
  },
  text: { query: 'the single web search a person would type, or ""' },
  maxTokens: GATE_MAX_TOKENS,
});

export const verdictStep = defineDecideStep({
  id: 'verdict',
  system: VERDICT_SYSTEM,
  // Distinct first letters (a/r) so the first token tells the values apart.
  questions: { verdict: { kind: 'choice', instructions: 'answered or research', options: ['answered', 'research'] } },
  text: { query: 'the single web search that closes the biggest gap, or ""' },
  maxTokens: GATE_MAX_TOKENS,
});

export type GateOutcome =
  | { pass: true }
  | {
      pass: false;
      reason: 'deferral' | 'refusal' | 'freshness' | 'verdict' | 'no_research';
      detail?: string;
      query?: string;
      nudge: string;
      /** Force tool use on the next round (false when there is nothing to research with). */
      forceTools: boolean;
    };

export type GateInput = {
  question: string;
  draft: string;
  toolResults: string[];
  earlierAnswers: string[];
  /** A research tool is offered and its host is not resting. */
  researchAvailable: boolean;
  /** A program-decided calculation already answered the arithmetic. */
  calculationRan: boolean;
  /** Deferral nudges already sent without research (at most one). */
  noResearchNudges: number;
  /** The freshness record (run beside the first round); null when it was not asked. */
  freshness: () => Promise<DecisionRecord | null>;
  /** Runs the verdict step and records it; returns null if it could not run. */
  verdict: (input: string) => Promise<DecisionRecord | null>;
  /** The classifier's judgement of the draft, recorded (with whether a pattern matched it too); none: the regexes and the verdict alone. */
  classify?: (draft: string, patternMatched: boolean) => Promise<Judgement>;
};

/** The verdict fails open: a check that could not answer raises no objection. */
async function verdictOrNull(input: GateInput): Promise<DecisionRecord | null> {
  try {
    return await input.verdict(
      verdictInput({ question: input.question, toolResults: input.toolResults, earlierAnswers: input.earlierAnswers, draft: input.draft }),
    );
  } catch {
    return null;
  }
}

export async function runGate(input: GateInput): Promise<GateOutcome> {
  const pattern = freeCheck(input.draft);
  // Refusals are the patterns' alone; a deferral is the classifier's word as much as theirs.
  const judged = pattern?.kind === 'refusal' || !input.classify ? null : await input.classify(input.draft, pattern !== null);
  const free =
    pattern?.kind === 'refusal' || (pattern && judged?.outcome !== 'answer')
      ? pattern
      : judged?.outcome === 'deferral'
        ? { kind: 'deferral' as const, match: `the classifier: p(deferral) = ${judged.p.toFixed(2)}` }
        : null;
  if (free) {
    if (!input.researchAvailable) {
      if (free.kind === 'deferral' && input.noResearchNudges === 0) {
        return { pass: false, reason: 'no_research', detail: free.match, nudge: NO_RESEARCH_NUDGE, forceTools: false };
      }
      return { pass: true };
    }
    return { pass: false, reason: free.kind, detail: free.match, nudge: researchNudge(undefined), forceTools: true };
  }
  if (!input.researchAvailable) return { pass: true };

  if (input.toolResults.length === 0 && !input.calculationRan) {
    // undefined and null read the same below
    const answers = (await input.freshness().catch(() => null))?.answers ?? {};
    const answer = answers.needs_fresh;
    if (saidYes(answer)) {
      const q = answers.query;
      const query = q?.kind === 'text' && q.value ? q.value : input.question.slice(0, 120);
      return {
        pass: false,
        reason: 'freshness',
        detail: `p(needs fresh) = ${answer.p}`,
        query,
        nudge: researchNudge(query),
        forceTools: true,
      };
    }
  }

  // Clearly an answer, and no pattern objected: no verdict call.
  if (judged?.outcome === 'answer' && !pattern) return { pass: true };
  const verdict = (await verdictOrNull(input))?.answers ?? {};
  const v = verdict.verdict;
  if (v?.kind === 'choice' && v.value === 'research') {
    const q = verdict.query;
    const query = q?.kind === 'text' && q.value ? q.value : undefined;
    return { pass: false, reason: 'verdict', detail: `p(research) = ${v.p}`, query, nudge: researchNudge(query), forceTools: true };
  }
  return { pass: true };
}
