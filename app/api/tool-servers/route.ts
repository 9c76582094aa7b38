import { handle, json, otherMethods } from '@/lib/http/http';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

/** The user's MCP servers from mcp.json, each with its state and tools; secrets masked. */
export function GET(request: Request) {
  return handle(request, async () => json(getRuntime().toolServers.list()));
}
