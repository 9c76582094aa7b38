/**
 * A person's search words, as a match either engine's index can run, and the snippets shown for a hit.
 *
 * The query is never an index's syntax: it is split into words the way the index's tokenizer
 * (unicode61) splits text (spaces, punctuation and control characters separate words;
 * letters, digits, marks and symbols belong to them), and every word is quoted, so quotes,
 * operators (AND, OR, NOT, NEAR), parentheses, stars and any Unicode are searched for as
 * text. All words must occur; the last one also matches as a prefix, for results as you type.
 * Each engine's store quotes the words in its own syntax.
 *
 * The index is contentless (the text is stored once, in its own table), so snippets are cut
 * here from the source text, around the first word that matches, with highlight ranges.
 */

import type { WordMatch } from '@/db/rows';

const SEPARATORS = /[\p{Z}\p{P}\p{Cc}\s]+/u;
const WORD = /[^\p{Z}\p{P}\p{Cc}\s]+/gu;
/** More words than this add little and cost a join each. */
const MAX_TERMS = 12;
/**
 * A word being typed matches as a prefix from four letters. Shorter prefixes match so much of
 * the vocabulary that, with no prefix index (it would double the index), merging them takes
 * over 100 ms at a million messages (three letters) against about 6 ms from four (p50, `npm
 * run bench`); shorter words match whole.
 */
const MIN_PREFIX = 4;
/** Characters of context in a snippet. */
export const SNIPPET_CHARS = 200;

/** Case and accents fold away, as with unicode61's remove_diacritics. */
export function fold(word: string): string {
  return word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

export type SearchTerms = { words: string[]; prefix: string | null };

/** The words of a query, folded, without repeats; the last one is also a prefix when long enough. */
export function searchTerms(query: string): SearchTerms {
  const words = [
    ...new Set(
      query
        .split(SEPARATORS)
        .map(fold)
        .filter((w) => w.length > 0),
    ),
  ].slice(0, MAX_TERMS);
  const last = words.at(-1);
  return { words, prefix: last && last.length >= MIN_PREFIX ? last : null };
}

export type { WordMatch };

/**
 * The match for a query; null when the query has no word to search for. Every word must
 * occur, or with `anyWord` any of them.
 */
export function wordMatch(query: string, { anyWord = false, prefix: asPrefix = true } = {}): WordMatch | null {
  const { words, prefix } = searchTerms(query);
  if (words.length === 0) return null;
  return { words, anyWord: anyWord && words.length > 1, prefix: asPrefix && prefix !== null };
}

/** Whether two matches ask for the same rows. */
export const sameMatch = (a: WordMatch | null, b: WordMatch | null) => JSON.stringify(a) === JSON.stringify(b);

export type Snippet = { snippet: string; highlights: [number, number][] };

/** The part of `text` around the first matching word, with every matching word in it marked. */
export function snippetOf(text: string, terms: SearchTerms, size = SNIPPET_CHARS): Snippet {
  const wanted = new Set(terms.words);
  const matches = (w: string) => {
    const f = fold(w);
    return wanted.has(f) || (terms.prefix !== null && f.startsWith(terms.prefix));
  };
  const spans: [number, number][] = [];
  for (const m of text.matchAll(WORD)) {
    if (matches(m[0])) spans.push([m.index, m.index + m[0].length]);
    if (spans.length > 0 && m.index > spans[0][0] + size) break;
  }
  const first = spans[0]?.[0] ?? 0;
  let start = Math.max(0, first - Math.floor(size / 3));
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    if (space > start - 20) start = space + 1;
  }
  let end = Math.min(text.length, start + size);
  if (end < text.length) {
    const space = text.indexOf(' ', end);
    if (space >= 0 && space < end + 20) end = space;
  }
  const lead = start > 0 ? '…' : '';
  const body = text.slice(start, end).replace(/\s/g, ' ');
  const tail = end < text.length ? '…' : '';
  const highlights = spans
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]): [number, number] => [s - start + lead.length, e - start + lead.length]);
  return { snippet: `${lead}${body}${tail}`, highlights };
}
