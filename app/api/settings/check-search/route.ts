import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { checkSearchBody } from '@/lib/contract/requests';
import { checkSearxng } from '@/lib/tools/web';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** One test search against a SearXNG address: `{ok, results}` or `{ok: false, error}` in words. */
export function POST(request: Request) {
  return handle(request, async () => {
    const { url } = await readJson(request, checkSearchBody);
    return json(await checkSearxng(url));
  });
}
