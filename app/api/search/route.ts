import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { searchLibrary, withMeaning } from '@/lib/data/search/search';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Full-text search over messages, attached files and titles, best first; optional filters.
 * With past conversations embedded (a setting), messages near the query in meaning join in.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.search, async ({ request, query, rt }) => {
    const { q, limit, threadId, role, from, to, thinking } = query();
    const { store, knowledge } = rt;
    const filters = { threadId, role, from, to, thinking: thinking === 'true' };
    const words = await searchLibrary(store, { query: q, limit, now: Date.now(), filters });
    const hits = withMeaning(words, await knowledge.similarMessages(q, limit, request.signal), { filters, limit });
    return reply({
      results: hits.map((h) => ({
        kind: h.kind,
        threadId: h.threadId,
        messageId: h.messageId,
        title: h.threadTitle,
        role: h.role,
        snippet: h.snippet,
        highlights: h.highlights,
        createdAt: h.createdAt,
        ...(h.attachment ? { attachment: h.attachment } : {}),
        ...(h.byMeaning ? { byMeaning: true } : {}),
      })),
    });
  }),
);
