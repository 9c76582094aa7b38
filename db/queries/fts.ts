import type { WordMatch } from '../rows';

/**
 * A match (db/rows.ts) as an FTS5 MATCH expression: every word quoted, so that
 * nothing in it is FTS syntax; the last one starred when it is also a prefix.
 */
export function fts5Match({ words, anyWord, prefix }: WordMatch): string {
  const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;
  return words.map((w, i) => (prefix && i === words.length - 1 ? `${quote(w)}*` : quote(w))).join(anyWord ? ' OR ' : ' ');
}
