import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { apiKeyFor } from '@/lib/shared/config';
import { checkEmbeddingsBody } from '@/lib/contract/requests';
import { checkEmbeddings } from '@/lib/models/embeddings';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** One text embedded by an embeddings server: `{ok, dims, ms}` or `{ok: false, error}` in words. */
export function POST(request: Request) {
  return handle(request, async () => {
    const { url, model } = await readJson(request, checkEmbeddingsBody);
    return json(await checkEmbeddings({ baseURL: url, model, apiKey: apiKeyFor(getRuntime().config, url) }));
  });
}
