import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { SSE_HEADERS, turnEventStream } from '@/lib/http/sse';
import { requireTurn } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Replays a turn's events after ?after=N, then follows it live until it ends. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.followTurn, async ({ request, params: { id, turnId }, query, rt }) => {
    const { after } = query();
    const { store, turns } = rt;
    await requireTurn(store, id, turnId);
    return new Response(turnEventStream(turns, turnId, after, request.signal), { headers: SSE_HEADERS });
  }),
);
