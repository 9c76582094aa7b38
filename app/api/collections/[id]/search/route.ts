import { handle, json, otherMethods, parseId, parseInput, searchParams } from '@/lib/http/http';
import { collectionSearchQuery, idParam } from '@/lib/contract/requests';
import type { PassageView } from '@/lib/contract/responses';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

type Params = { params: Promise<{ id: string }> };

/** GET /api/collections/:id/search?q=: the passages search_documents would give, best first. */
export function GET(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id, 'collection');
    const { q, limit } = parseInput(collectionSearchQuery, searchParams(request));
    const { knowledge } = getRuntime();
    knowledge.collection(id);
    const found = await knowledge.search({ query: q, collectionIds: [id], limit }, request.signal);
    return json({
      passages: found.passages satisfies PassageView[],
      byMeaning: found.byMeaning,
      ...(found.note ? { note: found.note } : {}),
    });
  });
}
