import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { editMemory, forgetMemory } from '@/lib/services/memories';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.editMemory, async ({ params, body, rt }) => reply(await editMemory(rt, params.id, (await body()).text))),
  on(endpoints.forgetMemory, async ({ params, rt }) => {
    await forgetMemory(rt, params.id);
    return noContent();
  }),
);
