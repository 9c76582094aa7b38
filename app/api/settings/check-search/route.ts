import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { checkSearxng } from '@/lib/tools/web';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One test search against a SearXNG address: `{ok, results}` or `{ok: false, error}` in words. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.checkSearch, async ({ body }) => reply(await checkSearxng((await body()).url))),
);
