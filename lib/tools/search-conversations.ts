import { z } from 'zod';
import { defineTool, ToolError } from './types';

/** Words worth searching for: letters and digits, at least 2 characters, common words dropped. */
const STOP = new Set(
  'the a an and or but of to in on at for with about from by is are was were be been it this that these those what which who how when where why did do does we i you me my our your us they them he she his her its as if so not no yes can could would should will shall may might have has had said say talk talked discuss discussed earlier before last time conversation conversations remember'.split(
    ' ',
  ),
);

export function searchWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
  return [...new Set(words.filter((w) => !STOP.has(w)))].slice(0, 8);
}

export const searchConversationsTool = defineTool({
  name: 'search_conversations',
  description:
    "Search the user's earlier conversations in Hearth (messages, attached files, titles) for what was said before. " +
    'Best matches first, recent ones ahead of old. Results are past exchanges, not current facts.',
  params: z.object({
    query: z.string().min(1).max(200).describe('words to look for'),
    limit: z.number().int().min(1).max(15).optional().describe('how many results, default 6'),
  }),
  cost: 2,
  timeoutMs: 3000,
  async run({ query, limit }, deps) {
    if (!deps.searchConversations) throw new ToolError('conversation search is not available here');
    const words = searchWords(query);
    if (words.length === 0) throw new ToolError('give one or more distinctive words to search for');
    const hits = await deps.searchConversations({ query: words.join(' '), limit: limit ?? 6, excludeThreadId: deps.threadId });
    return {
      note: 'These are earlier conversations, not current facts: anything time-sensitive in them may have changed.',
      query: words.join(' '),
      results: hits.map((h) => ({
        thread: h.title || '(untitled)',
        threadId: h.threadId,
        date: new Date(h.createdAt).toISOString().slice(0, 10),
        role: h.role,
        excerpt: h.excerpt,
        ...(h.other ? { reply: h.other.slice(0, 600) } : {}),
      })),
    };
  },
});
