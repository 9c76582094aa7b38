import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { idParam, rateAnswerBody } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { rateAnswer, threadView } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, POST, PATCH, DELETE, OPTIONS } = otherMethods('PUT');

type Params = { params: Promise<{ id: string; messageId: string }> };

/** Thumbs up or down on an answer (null takes them back); answers with the thread as it is now shown. */
export function PUT(request: Request, { params }: Params) {
  return handle(request, async () => {
    const p = await params;
    const threadId = parseId(idParam, p.id);
    const messageId = parseId(idParam, p.messageId, 'message');
    const { rating } = await readJson(request, rateAnswerBody);
    const { store, turns } = getRuntime();
    rateAnswer(store, threadId, messageId, rating);
    return json(threadView(store, turns, threadId));
  });
}
