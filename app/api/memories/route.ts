import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { addMemory, memoryView } from '@/lib/services/memories';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.listMemories, async ({ rt }) => reply({ memories: (await rt.store.listMemories()).map(memoryView) })),
  on(endpoints.addMemory, async ({ body, rt }) => reply(await addMemory(rt, (await body()).text), 201)),
);
