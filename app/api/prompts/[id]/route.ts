import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { editPrompt, removePrompt } from '@/lib/services/prompts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.editPrompt, async ({ params, body, rt }) => reply(await editPrompt(rt.store, params.id, await body()))),
  on(endpoints.removePrompt, async ({ params, rt }) => {
    await removePrompt(rt.store, params.id);
    return noContent();
  }),
);
