/** Fenced blocks (to their closing fence, or the end of an unfinished one) and inline code spans. */
const CODE = /(```[\s\S]*?(?:```|$)|`[^`\n]*`)/;

/**
 * Applies `rewrite` to the Markdown outside code, leaving fenced blocks and inline code as
 * written: what the page does to TeX delimiters and the export to images and HTML must never
 * change a code sample.
 */
export function outsideCode(text: string, rewrite: (prose: string) => string): string {
  return text
    .split(CODE)
    .map((part, i) => (i % 2 === 1 ? part : rewrite(part)))
    .join('');
}
