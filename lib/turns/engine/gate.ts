import { defineDecideStep } from '@/lib/turns/decide/decide';
import { saidYes, type DecisionRecord } from '@/lib/contract/decisions';
import type { Judgement } from './classifier';
import { freeCheck, type FreeCheck } from './deferral';
import { FRESHNESS_SYSTEM, NO_RESEARCH_NUDGE, researchNudge, VERDICT_SYSTEM, verdictInput } from './prompts';
import { evidenceUsed } from './uses-results';

/**
 * The gate decides whether a draft (a reply without tool calls) is an answer. The verdict, a
 * constrained call to the model, is the judge; the free layer in front of it (the regexes of
 * deferral.ts and the classifier of classifier.ts, both in-process) is only a first filter that
 * saves the verdict call when it is sure a draft defers:
 *  - set aside with no model call only when the patterns and the classifier agree that the
 *    draft defers (or refuses): sure in a way that survives new phrasings;
 *  - flagged by one of them alone: the verdict decides;
 *  - flagged by neither: freshness (asked of the question alone, only when no tool ran) may
 *    send the turn to search; a draft that carries this turn's tool results is accepted by the
 *    one rule that does not read its phrasing (uses-results.ts); every other draft goes to the
 *    verdict. The classifier's "clearly an answer" never skips the verdict.
 * "Ask the model about every answer" off (Settings → Checks) returns to the earlier gate, which
 * trusted the classifier: a confident "answer" was accepted with no verdict (trustClassifier).
 * Every model-based check fails open: a refusal or an error lets the draft through, because a
 * gate that fails closed turns a working turn into a loop. Every accepted draft says which judge
 * accepted it (Acceptance), for the Checks panel.
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

/** Who let a draft through. */
export type Acceptance =
  /** The verdict read it and said it answers (p: how sure). */
  | { judge: 'verdict'; p: number }
  /** The rule of uses-results.ts: it carries these pieces of this turn's tool results. */
  | { judge: 'results'; matched: string[] }
  /** The classifier alone (only with "Ask the model about every answer" off). */
  | { judge: 'classifier'; p: number }
  /**
   * Nobody could judge it: the verdict failed or refused (fails open), nothing is left to do
   * about a deferral (no research tool and its one nudge spent), or no research tool and the
   * setting off (the earlier gate asked nothing then), or the turn's checks were spent (the
   * gate's limit per turn, or the last round).
   */
  | { judge: 'none'; why: 'verdict_failed' | 'nudge_spent' | 'no_research' | 'checks_spent' };

export type GateOutcome =
  | { pass: true; by: Acceptance }
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
  /** "Ask the model about every answer" (Settings → Checks); on unless turned off. */
  judgeEveryAnswer?: boolean;
};

type Rejection = Extract<GateOutcome, { pass: false }>;

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

/** A draft the free layer set aside: research now, or with nothing to research with, one nudge to answer from knowledge. */
function setAside(input: GateInput, free: NonNullable<FreeCheck>): GateOutcome {
  if (!input.researchAvailable) {
    if (free.kind === 'deferral' && input.noResearchNudges === 0) {
      return { pass: false, reason: 'no_research', detail: free.match, nudge: NO_RESEARCH_NUDGE, forceTools: false };
    }
    return { pass: true, by: { judge: 'none', why: 'nudge_spent' } };
  }
  return { pass: false, reason: free.kind, detail: free.match, nudge: researchNudge(undefined), forceTools: true };
}

/** Freshness, when no tool ran: a question about something current sends the turn to search first. */
async function freshnessRejects(input: GateInput): Promise<Rejection | null> {
  if (input.toolResults.length > 0 || input.calculationRan) return null;
  // undefined and null read the same below
  const answers = (await input.freshness().catch(() => null))?.answers ?? {};
  const answer = answers.needs_fresh;
  if (!saidYes(answer)) return null;
  const q = answers.query;
  const query = q?.kind === 'text' && q.value ? q.value : input.question.slice(0, 120);
  return { pass: false, reason: 'freshness', detail: `p(needs fresh) = ${answer.p}`, query, nudge: researchNudge(query), forceTools: true };
}

/** The verdict's word: research (a search with its query, or with nothing to search with, the one nudge), or accepted. */
async function judgeByVerdict(input: GateInput): Promise<GateOutcome> {
  const verdict = (await verdictOrNull(input))?.answers ?? {};
  const v = verdict.verdict;
  if (v?.kind !== 'choice') return { pass: true, by: { judge: 'none', why: 'verdict_failed' } };
  if (v.value !== 'research') return { pass: true, by: { judge: 'verdict', p: v.p } };
  if (!input.researchAvailable) {
    return { pass: false, reason: 'no_research', detail: `p(research) = ${v.p}`, nudge: NO_RESEARCH_NUDGE, forceTools: false };
  }
  const q = verdict.query;
  const query = q?.kind === 'text' && q.value ? q.value : undefined;
  return { pass: false, reason: 'verdict', detail: `p(research) = ${v.p}`, query, nudge: researchNudge(query), forceTools: true };
}

export async function runGate(input: GateInput): Promise<GateOutcome> {
  if (input.judgeEveryAnswer === false) return trustClassifier(input);
  const pattern = freeCheck(input.draft);
  const judged = input.classify ? await input.classify(input.draft, pattern !== null) : null;
  const classifierFlags = judged?.outcome === 'deferral';
  // Both layers agree: sure enough to save the verdict call.
  if (pattern && classifierFlags) return setAside(input, pattern);
  // With no research tool, only a deferral's one nudge could follow: once it is spent, nothing is left to judge.
  if (!input.researchAvailable && input.noResearchNudges > 0) return { pass: true, by: { judge: 'none', why: 'nudge_spent' } };
  const flagged = pattern !== null || classifierFlags;
  if (!flagged && input.researchAvailable) {
    const stale = await freshnessRejects(input);
    if (stale) return stale;
  }
  if (!flagged) {
    const matched = evidenceUsed(input.draft, input.toolResults, input.question);
    if (matched.length) return { pass: true, by: { judge: 'results', matched } };
  }
  return judgeByVerdict(input);
}

/**
 * The earlier gate ("Ask the model about every answer" off): the classifier is trusted both
 * ways. A deferral (by a pattern the classifier does not read as clearly an answer, or by the
 * classifier) is set aside at once; clearly an answer skips the verdict (freshness still asks
 * whether it needed a search); unsure leaves it to the verdict. No model check runs without a
 * research tool.
 */
async function trustClassifier(input: GateInput): Promise<GateOutcome> {
  const pattern = freeCheck(input.draft);
  // Refusals are the patterns' alone; a deferral is the classifier's word as much as theirs.
  const judged = pattern?.kind === 'refusal' || !input.classify ? null : await input.classify(input.draft, pattern !== null);
  const free =
    pattern?.kind === 'refusal' || (pattern && judged?.outcome !== 'answer')
      ? pattern
      : judged?.outcome === 'deferral'
        ? { kind: 'deferral' as const, match: `the classifier: p(deferral) = ${judged.p.toFixed(2)}` }
        : null;
  if (free) return setAside(input, free);
  if (!input.researchAvailable) return { pass: true, by: { judge: 'none', why: 'no_research' } };
  const stale = await freshnessRejects(input);
  if (stale) return stale;
  // Clearly an answer, and no pattern objected: no verdict call.
  if (judged?.outcome === 'answer' && !pattern) return { pass: true, by: { judge: 'classifier', p: judged.p } };
  return judgeByVerdict(input);
}
