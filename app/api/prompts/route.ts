import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { addPrompt, promptView } from '@/lib/services/prompts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The saved prompts, by name. */
  on(endpoints.listPrompts, async ({ rt }) => reply({ prompts: (await rt.store.listPrompts()).map(promptView) })),
  /** Saves a prompt; a name already taken is a 400 that says so. */
  on(endpoints.addPrompt, async ({ body, rt }) => reply(await addPrompt(rt.store, await body()), 201)),
);
