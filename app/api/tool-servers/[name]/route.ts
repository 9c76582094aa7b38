import { handle, json, otherMethods, parseInput, readJson } from '@/lib/http/http';
import { serverNameParam, toolServerBody } from '@/lib/contract/requests';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, POST, PATCH, OPTIONS } = otherMethods('PUT', 'DELETE');

type Params = { params: Promise<{ name: string }> };

/**
 * Adds or changes a server (written back to mcp.json; it connects in the background). A stdio
 * server runs a program: only with a password set (the owner's session, as Settings); without
 * one it is written in mcp.json by hand (403 here).
 */
export function PUT(request: Request, { params }: Params) {
  return handle(request, async () => {
    const name = parseInput(serverNameParam, (await params).name);
    const { server } = await readJson(request, toolServerBody);
    const { toolServers, config } = getRuntime();
    toolServers.put(name, server, { programs: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH) });
    return json(toolServers.list());
  });
}

export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    const name = parseInput(serverNameParam, (await params).name);
    if (!getRuntime().toolServers.remove(name)) throw new HearthError('not_found', `There is no tool server called "${name}".`);
    return new Response(null, { status: 204 });
  });
}
