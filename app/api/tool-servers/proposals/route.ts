import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The owner's word on tool servers an imported library file proposed (GET /api/tool-servers
 * lists them): `apply` adds each to mcp.json (switched off while a secret is still masked; one
 * that runs a program only with a password set, 403 otherwise), `dismiss` drops it.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.decideToolServerProposals, async ({ body, rt }) => {
    const action = await body();
    const { toolServers, config } = rt;
    await toolServers.decideProposals(action, { programs: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH) });
    return reply(await toolServers.list());
  }),
);
