import { randomUUID } from 'node:crypto';
import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { threadPage } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.listThreads, async ({ query, rt }) => {
    const { limit, cursor, folder, archived } = query();
    return reply(await threadPage(rt.store, limit, cursor, { folderId: folder === 'none' ? null : folder, archived: archived === 'true' }));
  }),
  on(endpoints.createThread, async ({ body, rt }) => {
    const { title } = await body();
    const thread = await rt.store.createThread({ id: randomUUID(), title: title ?? '', now: Date.now() });
    return reply({ id: thread.id, title: thread.title, createdAt: thread.createdAt }, 201);
  }),
);
