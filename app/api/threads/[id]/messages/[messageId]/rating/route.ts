import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { rateAnswer, threadView } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Thumbs up or down on an answer (null takes them back); answers with the thread as it is now shown. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.rateAnswer, async ({ params, body, rt }) => {
    const { rating } = await body();
    const { store, turns } = rt;
    await rateAnswer(store, params.id, params.messageId, rating);
    return reply(await threadView(store, turns, params.id));
  }),
);
