import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { approvalBody, idParam } from '@/lib/contract/requests';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';
import { requireThread } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

type Params = { params: Promise<{ id: string }> };

/** The user's answer to a tool call waiting in this thread: allow once, always allow the tool, or deny. */
export function POST(request: Request, { params }: Params) {
  return handle(request, async () => {
    const threadId = parseId(idParam, (await params).id);
    const { callId, allow, always } = await readJson(request, approvalBody);
    const { store, turns } = getRuntime();
    requireThread(store, threadId);
    const answer = !allow ? 'deny' : always ? 'always' : 'allow';
    if (!turns.answerApproval({ threadId, callId, answer }))
      throw new HearthError(
        'not_found',
        'No call of this thread is waiting for an answer under that id (answered already, or its turn ended).',
      );
    return json({ callId, answer });
  });
}
