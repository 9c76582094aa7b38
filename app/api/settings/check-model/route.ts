import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { apiKeyFor } from '@/lib/shared/config';
import { checkModelBody } from '@/lib/contract/requests';
import { createLlamaClient } from '@/lib/models/client';
import { listModels } from '@/lib/models/models';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** Asks a model server how it is (reachable, model, context size, slots, vision) and which models it offers, before it is saved. */
export function POST(request: Request) {
  return handle(request, async () => {
    const { url, model } = await readJson(request, checkModelBody);
    const { config } = getRuntime();
    const baseURL = url.replace(/\/+$/, '');
    const client = createLlamaClient({
      baseURL,
      timeoutMs: 5000,
      healthTimeoutMs: 5000,
      apiKey: apiKeyFor(config, baseURL),
      model: model || undefined,
    });
    const [health, offered] = await Promise.all([
      client.health(),
      listModels([baseURL], { apiKey: apiKeyFor(config, baseURL), timeoutMs: 5000 }),
    ]);
    return json(health.reachable ? { ...health, models: offered.models } : health);
  });
}
