import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { addMemory, memoryView } from '@/lib/services/memories';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.listMemories, ({ rt }) => reply({ memories: rt.store.listMemories().map(memoryView) })),
  on(endpoints.addMemory, async ({ body, rt }) => reply(addMemory(rt, (await body()).text), 201)),
);
