import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';
import { requireThread } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The user's answer to a tool call waiting in this thread: allow once, always allow the tool, or deny. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.answerApproval, async ({ params, body, rt }) => {
    const threadId = params.id;
    const { callId, allow, always } = await body();
    const { store, turns } = rt;
    await requireThread(store, threadId);
    const answer = !allow ? 'deny' : always ? 'always' : 'allow';
    if (!(await turns.answerApproval({ threadId, callId, answer })))
      throw new HearthError(
        'not_found',
        'No call of this thread is waiting for an answer under that id (answered already, or its turn ended).',
      );
    return reply({ callId, answer });
  }),
);
