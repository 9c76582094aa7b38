import { handle, json, otherMethods, parseId } from '@/lib/http/http';
import { idParam } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { deleteMessageAndAfter, threadView } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = otherMethods('DELETE');

type Params = { params: Promise<{ id: string; messageId: string }> };

/** Deletes a message and what follows it (every branch under it); answers with the thread as it is now shown. */
export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    const p = await params;
    const threadId = parseId(idParam, p.id);
    const messageId = parseId(idParam, p.messageId, 'message');
    const rt = getRuntime();
    deleteMessageAndAfter(rt, threadId, messageId);
    return json(threadView(rt.store, rt.turns, threadId));
  });
}
