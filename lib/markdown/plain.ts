/**
 * Markdown as the words a person reads, for a search result's snippet: emphasis, code marks,
 * headings, quotes, list markers and link syntax go; link and image texts stay. Not a renderer:
 * the snippet is shown as text (its matches marked), so nothing here has to be safe HTML.
 */
export function markdownToPlain(markdown: string): string {
  return markdown
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
