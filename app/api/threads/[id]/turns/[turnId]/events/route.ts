import { handle, otherMethods, parseId, parseInput, searchParams } from '@/lib/http/http';
import { eventsQuery, idParam } from '@/lib/contract/requests';
import { SSE_HEADERS, turnEventStream } from '@/lib/http/sse';
import { getRuntime } from '@/lib/services/runtime';
import { requireTurn } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

type Params = { params: Promise<{ id: string; turnId: string }> };

/** Replays a turn's events after ?after=N, then follows it live until it ends. */
export function GET(request: Request, { params }: Params) {
  return handle(request, async () => {
    const p = await params;
    const threadId = parseId(idParam, p.id);
    const turnId = parseId(idParam, p.turnId, 'turn');
    const { after } = parseInput(eventsQuery, searchParams(request));
    const { store, turns } = getRuntime();
    requireTurn(store, threadId, turnId);
    return new Response(turnEventStream(turns, turnId, after, request.signal), { headers: SSE_HEADERS });
  });
}
