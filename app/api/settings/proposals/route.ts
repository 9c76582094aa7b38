import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The owner's word on settings an imported library file proposed (GET /api/settings lists them):
 * `apply` puts each named one in force as if saved in the page, `dismiss` drops it. Answers the
 * settings as GET /api/settings does.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.decideProposals, async ({ body, rt }) => reply(await rt.settings.decideProposals(await body(), Date.now()))),
);
