import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { requireModel } from '@/lib/services/models';
import { SSE_HEADERS, turnEventStream } from '@/lib/http/sse';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** A new answer beside this one (to the same question), streamed like a message's turn. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.regenerate, async ({ request, params, body, rt }) => {
    // No body (a plain Regenerate) is the thread's own model.
    const { model } = await body();
    const runtime = rt;
    if (model) await requireModel(runtime, model);
    const { turnId } = await runtime.turns.regenerate({ threadId: params.id, messageId: params.messageId, model });
    return new Response(turnEventStream(runtime.turns, turnId, 0, request.signal), {
      headers: { ...SSE_HEADERS, 'X-Turn-Id': turnId },
    });
  }),
);
