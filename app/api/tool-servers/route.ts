import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The user's MCP servers from mcp.json, each with its state and tools; secrets masked. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.toolServers, async ({ rt }) => reply(await rt.toolServers.list())),
);
