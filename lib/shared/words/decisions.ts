import type { DecideAnswer, DecisionRecord } from '@/lib/contract/decisions';

/**
 * A decide step's answers as sentences a person reads ("Needs current information: no, 88%"),
 * not the raw values the model gave ("needs_fresh=false (p=0.12)"). Known steps get their own
 * words; any other falls back to its field names.
 */

export type CheckLine = { label: string; text: string; p?: number };

const QUESTIONS: Record<string, Record<string, string>> = {
  freshness: { needs_fresh: 'Needs current information', query: 'Would look up' },
  verdict: { verdict: 'Answers the question', query: 'Still to look up' },
  arithmetic: { is_arithmetic: 'Arithmetic to compute exactly', expression: 'Computed as' },
  deferral_classifier: { is_deferral: 'Reads as a deferral (Hearth’s classifier)', outcome: 'So' },
  table_figure: { asks_figure: 'Asks for a figure from the table' },
  acceptance: { accepted_by: 'Accepted by', matched: 'It carries' },
};

/** Steps whose text answers are Hearth's own words, not something the model wrote: shown without quotation marks. */
const OWN_WORDS = new Set(['acceptance', 'deferral_classifier']);

const CHOICES: Record<string, string> = { answered: 'yes', research: 'no, it needs a search' };

function say(a: DecideAnswer, ownWords: boolean): { text: string; p?: number } {
  if ('refused' in a) return { text: 'no answer from the model' };
  if (a.kind === 'text' && ownWords) return { text: a.value };
  if (a.kind === 'boolean') return { text: a.value ? 'yes' : 'no', p: a.p };
  if (a.kind === 'choice') return { text: CHOICES[a.value] ?? a.value, p: a.p };
  if (a.kind === 'score') return { text: a.level };
  return { text: a.value ? `“${a.value}”` : '' };
}

/** A follow-up field is shown only when the check's own answer calls for it (nothing is "still to look up" in a complete answer). */
const FOLLOW_UP: Record<string, { field: string; when: (answers: DecisionRecord['answers']) => boolean }> = {
  verdict: {
    field: 'query',
    when: (a) => a.verdict !== undefined && 'kind' in a.verdict && a.verdict.kind === 'choice' && a.verdict.value === 'research',
  },
  freshness: {
    field: 'query',
    when: (a) => a.needs_fresh !== undefined && 'kind' in a.needs_fresh && a.needs_fresh.kind === 'boolean' && a.needs_fresh.value,
  },
};

export function describeDecision(record: DecisionRecord): CheckLine[] {
  const labels = QUESTIONS[record.stepId] ?? {};
  const followUp = FOLLOW_UP[record.stepId];
  return Object.entries(record.answers)
    .filter(([key]) => !followUp || key !== followUp.field || followUp.when(record.answers))
    .map(([key, answer]) => ({ label: labels[key] ?? key.replace(/_/g, ' '), ...say(answer, OWN_WORDS.has(record.stepId)) }))
    .filter((line) => line.text !== '');
}

/** A probability as a person reads it. */
export const percent = (p: number) => `${Math.round(p * 100)}%`;
