import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { toolServerProposalsAction } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/**
 * The owner's word on tool servers an imported library file proposed (GET /api/tool-servers
 * lists them): `apply` adds each to mcp.json (switched off while a secret is still masked; one
 * that runs a program only with a password set, 403 otherwise), `dismiss` drops it.
 */
export function POST(request: Request) {
  return handle(request, async () => {
    const action = await readJson(request, toolServerProposalsAction);
    const { toolServers, config } = getRuntime();
    toolServers.decideProposals(action, { programs: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH) });
    return json(toolServers.list());
  });
}
