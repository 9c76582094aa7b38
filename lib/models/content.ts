/**
 * A user message's content: plain text, or (when it carries images for a vision model) parts
 * in OpenAI's form, text first, then each image as a data URL, in the order attached.
 */
export type ContentPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export type UserContent = string | ContentPart[];

/** The words of a content, without its images. */
export function textOf(content: UserContent): string {
  return typeof content === 'string' ? content : content.map((p) => (p.type === 'text' ? p.text : '')).join('\n\n');
}

/**
 * Text added before or after a message's own, its images kept where they are: before goes into
 * the first text part, after into the last (so a message's images never move, and the prompt
 * before them keeps its prefix).
 */
export function withText(content: UserContent, { before, after }: { before?: string; after?: string }): UserContent {
  const join = (...parts: (string | undefined)[]) => parts.filter((p) => p !== undefined && p !== '').join('\n\n');
  if (typeof content === 'string') return join(before, content, after);
  const parts = [...content];
  const first = parts.findIndex((p) => p.type === 'text');
  if (before !== undefined) {
    if (first >= 0) parts[first] = { type: 'text', text: join(before, (parts[first] as { text: string }).text) };
    else parts.unshift({ type: 'text', text: before });
  }
  if (after !== undefined) {
    const last = parts.findLastIndex((p) => p.type === 'text');
    if (last >= 0) parts[last] = { type: 'text', text: join((parts[last] as { text: string }).text, after) };
    else parts.push({ type: 'text', text: after });
  }
  return parts;
}

/** How much of the context a content takes, in characters; an image counts as `imageChars`. */
export function contentChars(content: UserContent | null, imageChars: number): number {
  if (content === null) return 0;
  if (typeof content === 'string') return content.length;
  return content.reduce((n, p) => n + (p.type === 'text' ? p.text.length : imageChars), 0);
}
