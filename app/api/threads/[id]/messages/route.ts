import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { SSE_HEADERS, turnEventStream } from '@/lib/http/sse';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Saves the message, starts a detached turn and streams its events. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.sendMessage, async ({ request, params, body, rt }) => {
    const { content, attachmentIds, editOf } = await body();
    const { turns } = rt;
    const { turnId } = await turns.start({ threadId: params.id, content, attachmentIds, editOf });
    return new Response(turnEventStream(turns, turnId, 0, request.signal), {
      headers: { ...SSE_HEADERS, 'X-Turn-Id': turnId },
    });
  }),
);
