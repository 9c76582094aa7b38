import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { apiKeyFor } from '@/lib/shared/config';
import { checkEmbeddings } from '@/lib/models/embeddings';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One text embedded by an embeddings server: `{ok, dims, ms}` or `{ok: false, error}` in words. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.checkEmbeddings, async ({ body, rt }) => {
    const { url, model } = await body();
    return reply(await checkEmbeddings({ baseURL: url, model, apiKey: apiKeyFor(rt.config, url) }));
  }),
);
