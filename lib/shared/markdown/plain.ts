/**
 * Markdown as the words a person reads, for a search result's snippet and for what a screen
 * reader hears of an answer: emphasis, code marks, headings, quotes, list markers, link syntax,
 * table rules and raw HTML go (the page does not show HTML either); link and image texts stay,
 * and a table row reads as its cells separated by commas. Not a renderer: the result is shown
 * or spoken as text, so nothing here has to be safe HTML.
 */
export function markdownToPlain(markdown: string): string {
  return markdown
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<\/?[a-z][^<>\n]*>/gi, '')
    .replace(/^[ \t]*\|?([ \t]*:?-+:?[ \t]*\|)+([ \t]*:?-+:?[ \t]*)?$\n?/gm, '')
    .replace(/^[ \t]*\|(.*)\|[ \t]*$/gm, (_, cells: string) =>
      cells
        .split('|')
        .map((c) => c.trim())
        .join(', '),
    )
    .replace(/^[ \t]{0,3}([-*_])([ \t]*\1){2,}[ \t]*$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^```[^\n]*$/gm, '')
    .replace(/!\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/\[([^\]\n]+)\]\([^)\n]*\)/g, '$1')
    .replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, '')
    .replace(/^[ \t]{0,3}>[ \t]?/gm, '')
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?!\w)/g, '$1$2')
    .replace(/~~(?=\S)([^~\n]*?\S)~~/g, '$1')
    .replace(/`([^`\n]+)`/g, '$1');
}
