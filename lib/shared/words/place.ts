/** Where a passage is, in words: "page 3, lines 10–24" (the tool's results and the page say it alike). */
export function placeOf(p: { page: number | null; lineStart: number; lineEnd: number }): string {
  const lines = p.lineStart === p.lineEnd ? `line ${p.lineStart}` : `lines ${p.lineStart}–${p.lineEnd}`;
  return p.page !== null ? `page ${p.page}, ${lines}` : lines;
}
