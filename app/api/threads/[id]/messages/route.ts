import { handle, otherMethods, parseId, readJson } from '@/lib/http/http';
import { idParam, postMessageBody } from '@/lib/contract/requests';
import { SSE_HEADERS, turnEventStream } from '@/lib/http/sse';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

type Params = { params: Promise<{ id: string }> };

/** Saves the message, starts a detached turn and streams its events. */
export function POST(request: Request, { params }: Params) {
  return handle(request, async () => {
    const threadId = parseId(idParam, (await params).id);
    const body = await readJson(request, postMessageBody);
    const { turns } = getRuntime();
    const { turnId } = turns.start({ threadId, content: body.content, attachmentIds: body.attachmentIds, editOf: body.editOf });
    return new Response(turnEventStream(turns, turnId, 0, request.signal), {
      headers: { ...SSE_HEADERS, 'X-Turn-Id': turnId },
    });
  });
}
