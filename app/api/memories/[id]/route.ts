import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { getRuntime } from '@/lib/services/runtime';
import { editMemory, forgetMemory } from '@/lib/services/memories';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.editMemory, async ({ params, body }) => reply(editMemory(getRuntime(), params.id, (await body()).text))),
  on(endpoints.forgetMemory, ({ params }) => {
    forgetMemory(getRuntime(), params.id);
    return noContent();
  }),
);
