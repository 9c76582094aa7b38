import { handle, otherMethods, parseId } from '@/lib/api/http';
import { idParam } from '@/lib/contract/requests';
import { SSE_HEADERS, turnEventStream } from '@/lib/api/sse';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

type Params = { params: Promise<{ id: string; messageId: string }> };

/** A new answer beside this one (to the same question), streamed like a message's turn. */
export function POST(request: Request, { params }: Params) {
  return handle(request, async () => {
    const p = await params;
    const threadId = parseId(idParam, p.id);
    const messageId = parseId(idParam, p.messageId, 'message');
    const { turns } = getRuntime();
    const { turnId } = turns.regenerate({ threadId, messageId });
    return new Response(turnEventStream(turns, turnId, 0, request.signal), {
      headers: { ...SSE_HEADERS, 'X-Turn-Id': turnId },
    });
  });
}
