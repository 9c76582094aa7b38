import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { getRuntime } from '@/lib/services/runtime';
import { addMemory, memoryView } from '@/lib/services/memories';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.listMemories, () => reply({ memories: getRuntime().store.listMemories().map(memoryView) })),
  on(endpoints.addMemory, async ({ body }) => reply(addMemory(getRuntime(), (await body()).text), 201)),
);
