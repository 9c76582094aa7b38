import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { availableModels } from '@/lib/services/models';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Every model every model server offers, with its load state (router mode) and what is known of it; servers that did not answer are listed apart. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.listModels, async ({ rt }) => reply(await availableModels(rt))),
);
