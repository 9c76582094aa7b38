import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { reachCollection } from '@/lib/services/shared-collections';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** ?q=: the passages search_documents would give, best first. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.searchCollection, async ({ request, params: { id }, query, rt }) => {
    const { q, limit } = query();
    const { knowledge } = await reachCollection(rt.knowledge, await rt.sharedWithMe(), id);
    const found = await knowledge.search({ query: q, collectionIds: [id], limit }, request.signal);
    return reply({ passages: found.passages, byMeaning: found.byMeaning, ...(found.note ? { note: found.note } : {}) });
  }),
);
