import { randomUUID } from 'node:crypto';
import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The folders, by name, each with how many threads it holds. */
  on(endpoints.listFolders, async ({ rt }) => reply({ folders: await rt.store.listFolders() })),
  /** {name} → 201 {id, name, createdAt}. */
  on(endpoints.createFolder, async ({ body, rt }) => {
    const { name } = await body();
    const { store, updates } = rt;
    const folder = await store.createFolder({ id: randomUUID(), name, now: Date.now() });
    updates.publish({ type: 'library' });
    return reply({ id: folder.id, name: folder.name, createdAt: folder.createdAt }, 201);
  }),
);
