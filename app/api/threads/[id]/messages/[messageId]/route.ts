import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { deleteMessageAndAfter, threadView } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Deletes a message and what follows it (every branch under it); answers with the thread as it is now shown. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.deleteMessage, async ({ params, rt }) => {
    await deleteMessageAndAfter(rt, params.id, params.messageId);
    return reply(await threadView(rt.store, rt.turns, params.id));
  }),
);
