/**
 * The one rule that accepts a draft without the verdict (gate.ts): the turn gathered tool
 * results and the draft carries them. It reads what the draft contains, not how it is worded,
 * so it holds for phrasings and languages no pattern or classifier has seen.
 *
 * The measure: the distinct pieces of evidence that appear in this turn's successful tool
 * results, are not in the question, and appear in the draft. A piece of evidence is
 *  - a figure: a number of two or more digits ("18.40", "1,250", "2026"), compared as numbers
 *    are written without thousands separators or trailing decimal zeros;
 *  - a rare word: six or more letters in an alphabetic script (a place, a name, a term), not
 *    one of the common words below; in Chinese, Japanese and Korean, two characters side by side.
 * A draft that carries at least MIN_EVIDENCE of them uses the results. Words the question
 * brought do not count (a draft that repeats the question has used nothing), nor do a JSON
 * result's keys ("snippet", "results") or a failed call's error.
 */

export const MIN_EVIDENCE = 2;

/** Long words any text has, in the languages Hearth's users write most; never evidence alone. */
const COMMON = new Set(
  (
    'about above across actually after again against almost already although always amount another answer answers around ' +
    'available because become before behind being below better between beyond cannot certain change check could current ' +
    'currently during either enough especially every everything example following further general however information ' +
    'instead latest little looking making might minutes moment monday tuesday wednesday thursday friday saturday sunday ' +
    'nothing number online others perhaps please possible probably question rather really result results search ' +
    'second should something sometimes source sources still through today together tomorrow towards under unless until ' +
    'usually various website whether which within without would yesterday snippet title https www'
  ).split(' '),
);

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const FIGURE = /\d+(?:[.,]\d+)*/g;
const WORD = /[\p{L}\p{M}]+/gu;

/** "1,250.50" and "1250.5" are the same figure; "18:40" is two. */
function figure(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 2) return null;
  const plain = raw.replace(/,(?=\d{3}\b)/g, '');
  return /^\d+\.\d+$/.test(plain) ? plain.replace(/0+$/, '').replace(/\.$/, '') : plain;
}

/** The evidence a text holds: figures and rare words (and CJK pairs), lower-cased. */
export function evidenceIn(text: string): Set<string> {
  const out = new Set<string>();
  const normal = text.normalize('NFKC');
  for (const m of normal.matchAll(FIGURE)) {
    const f = figure(m[0]);
    if (f) out.add(f);
  }
  for (const m of normal.matchAll(WORD)) {
    const word = m[0].toLowerCase();
    if (CJK.test(word)) {
      const chars = [...word].filter((c) => CJK.test(c));
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
    } else if ([...word].length >= 6 && !COMMON.has(word)) out.add(word);
  }
  return out;
}

/** What the verdict reads of a result ("name: {json}") less what is not the result's own words: keys and failures. */
function resultText(forGate: string): string {
  if (/^[\w.-]+ failed: /.test(forGate)) return '';
  return forGate.replace(/"[^"\\]{1,40}"\s*:/g, ' ');
}

/** The evidence from this turn's results that the draft carries (empty when it carries too little to count). */
export function evidenceUsed(draft: string, toolResults: readonly string[], question: string): string[] {
  const fromResults = evidenceIn(toolResults.map(resultText).join('\n'));
  if (fromResults.size === 0) return [];
  const asked = evidenceIn(question);
  const inDraft = evidenceIn(draft);
  const used = [...inDraft].filter((e) => fromResults.has(e) && !asked.has(e));
  return used.length >= MIN_EVIDENCE ? used : [];
}
