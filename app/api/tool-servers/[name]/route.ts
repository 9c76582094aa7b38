import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /**
   * Adds or changes a server (written back to mcp.json; it connects in the background). A stdio
   * server runs a program: only with a password set (the owner's session, as Settings); without
   * one it is written in mcp.json by hand (403 here).
   */
  on(endpoints.putToolServer, async ({ params: { name }, body }) => {
    const { server } = await body();
    const { toolServers, config } = getRuntime();
    toolServers.put(name, server, { programs: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH) });
    return reply(toolServers.list());
  }),
  on(endpoints.removeToolServer, ({ params: { name } }) => {
    if (!getRuntime().toolServers.remove(name)) throw new HearthError('not_found', `There is no tool server called "${name}".`);
    return noContent();
  }),
);
