/** Decide steps: small constrained judgements asked of the model, answered with probabilities. */

export type BooleanQuestion = { kind: 'boolean'; instructions: string };
export type ChoiceQuestion = { kind: 'choice'; instructions: string; options: readonly string[] };
export type ScoreLevel = { label: string; value?: number };
export type ScoreQuestion = { kind: 'score'; instructions: string; levels: readonly ScoreLevel[] };
export type Question = BooleanQuestion | ChoiceQuestion | ScoreQuestion;

/** boolean: p is the probability of yes. */
export type BooleanAnswer = { kind: 'boolean'; value: boolean; p: number };
/** choice: p is the probability of the chosen value. */
export type ChoiceAnswer = { kind: 'choice'; value: string; p: number };
/** score: the most probable level, and value = the probability-weighted mean of the levels' values. */
export type ScoreAnswer = { kind: 'score'; level: string; value: number };
/** A short free-text field asked next to the judgement (the verdict's query). */
export type TextAnswer = { kind: 'text'; value: string };
// kind is never set on a refusal; naming it lets `answer?.kind` tell every answer apart.
export type Refusal = { refused: true; reason: string; kind?: undefined };
export type DecideAnswer = BooleanAnswer | ChoiceAnswer | ScoreAnswer | TextAnswer | Refusal;

export type DecisionRecord = {
  stepId: string;
  /** epoch ms */
  at: number;
  modelId: string;
  /**
   * native: read from llama-server's grammar-aware token probabilities; estimated: from the
   * answer alone; classifier: Hearth's own in-process classifier's score (no model call);
   * program: a decision Hearth's code made by a rule (which judge accepted a draft).
   */
  source: 'native' | 'estimated' | 'classifier' | 'program';
  answers: Readonly<Record<string, DecideAnswer>>;
};

/** Whether a boolean question was answered yes: a refusal, no answer or another kind of answer is no. */
export function saidYes(a: DecideAnswer | undefined): a is BooleanAnswer {
  return a?.kind === 'boolean' && a.value;
}

export function isRefusal(a: DecideAnswer | undefined): a is Refusal {
  return Boolean(a && 'refused' in a && a.refused);
}
