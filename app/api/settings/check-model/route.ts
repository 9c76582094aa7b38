import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { apiKeyFor } from '@/lib/shared/config';
import { createLlamaClient } from '@/lib/models/client';
import { listModels } from '@/lib/models/models';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Asks a model server how it is (reachable, model, context size, slots, vision) and which models it offers, before it is saved. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.checkModel, async ({ body, rt }) => {
    const { url, model } = await body();
    const { config } = rt;
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
    // ModelHealth's own model list is ids; the check answers the models as GET /api/models lists them.
    return reply({ ...health, models: health.reachable ? offered.models : undefined });
  }),
);
