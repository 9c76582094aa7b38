import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /**
   * Adds or changes a server (written back to mcp.json; it connects in the background). A stdio
   * server runs a program: only with a password set (the owner's session, as Settings); without
   * one it is written in mcp.json by hand (403 here).
   */
  on(endpoints.putToolServer, async ({ params: { name }, body, rt }) => {
    const { server } = await body();
    const { toolServers, config } = rt;
    toolServers.put(name, server, { programs: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH) });
    return reply(await toolServers.list());
  }),
  on(endpoints.removeToolServer, ({ params: { name }, rt }) => {
    if (!rt.toolServers.remove(name)) throw new HearthError('not_found', `There is no tool server called "${name}".`);
    return noContent();
  }),
);
