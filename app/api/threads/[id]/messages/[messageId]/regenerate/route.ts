import { handle, otherMethods, parseId, readJson } from '@/lib/http/http';
import { idParam, regenerateBody } from '@/lib/contract/requests';
import { requireModel } from '@/lib/services/models';
import { SSE_HEADERS, turnEventStream } from '@/lib/http/sse';
import { getRuntime } from '@/lib/services/runtime';

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
    // No body (a plain Regenerate) is the thread's own model.
    const { model } = await readJson(request, regenerateBody);
    const runtime = getRuntime();
    if (model) await requireModel(runtime, model);
    const { turnId } = runtime.turns.regenerate({ threadId, messageId, model });
    return new Response(turnEventStream(runtime.turns, turnId, 0, request.signal), {
      headers: { ...SSE_HEADERS, 'X-Turn-Id': turnId },
    });
  });
}
