import { handle, json, otherMethods, parseInput, searchParams } from '@/lib/api/http';
import { searchQuery } from '@/lib/api/schemas';
import { getRuntime } from '@/lib/server/runtime';
import { searchWords } from '@/lib/tools/search-conversations';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

/** Searches every stored message for all the given words, newest first. */
export function GET(request: Request) {
  return handle(() => {
    const { q, limit } = parseInput(searchQuery, searchParams(request));
    const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const useful = searchWords(q).length ? searchWords(q) : words;
    const hits = useful.length ? getRuntime().store.searchMessages({ words: useful, limit }) : [];
    return json({
      results: hits.map((h) => {
        const at = h.content.toLowerCase().indexOf(useful[0] ?? '');
        const start = Math.max(0, at - 60);
        return {
          threadId: h.threadId,
          messageId: h.messageId,
          title: h.title,
          snippet: `${start > 0 ? '…' : ''}${h.content.slice(start, start + 200)}${h.content.length > start + 200 ? '…' : ''}`,
          createdAt: h.createdAt,
        };
      }),
    });
  });
}
