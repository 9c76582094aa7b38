/**
 * What the message box offers as it is typed: "/name" alone in the box offers the saved prompts,
 * "#name" at the end of the text offers the knowledge collections. Plain functions, so the
 * composer's list and its tests agree.
 */

export type Trigger = { kind: 'prompt'; query: string } | { kind: 'collection'; query: string; start: number } | null;

export function triggerOf(text: string): Trigger {
  const slash = /^\/([a-z0-9-]*)$/i.exec(text);
  if (slash) return { kind: 'prompt', query: slash[1].toLowerCase() };
  const hash = /(^|\s)#([^\s#]*)$/.exec(text);
  if (hash) return { kind: 'collection', query: hash[2].toLowerCase(), start: hash.index + hash[1].length };
  return null;
}

/** Names beginning with the query first, then those containing it; each in its own order; at most `limit`. */
export function matching<T extends { name: string }>(items: T[], query: string, limit = 8): T[] {
  const q = query.toLowerCase();
  const starts = items.filter((i) => i.name.toLowerCase().startsWith(q));
  const contains = items.filter((i) => !i.name.toLowerCase().startsWith(q) && i.name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

/** The text with a "#name" token taken out (the collection it named is chosen instead). */
export function withoutToken(text: string, start: number): string {
  return text.slice(0, start).replace(/[ \t]+$/, '');
}
