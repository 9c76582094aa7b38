import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { bulkThreadsBody } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { bulkThreads } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** One action on the threads selected in the sidebar: delete them, archive or unarchive them, or move them to a folder. */
export function POST(request: Request) {
  return handle(request, async () => {
    const body = await readJson(request, bulkThreadsBody);
    return json({ count: bulkThreads(getRuntime(), body) });
  });
}
