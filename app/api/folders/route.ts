import { randomUUID } from 'node:crypto';
import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The folders, by name, each with how many threads it holds. */
  on(endpoints.listFolders, () => reply({ folders: getRuntime().store.listFolders() })),
  /** {name} → 201 {id, name, createdAt}. */
  on(endpoints.createFolder, async ({ body }) => {
    const { name } = await body();
    const { store, updates } = getRuntime();
    const folder = store.createFolder({ id: randomUUID(), name, now: Date.now() });
    updates.publish({ type: 'library' });
    return reply({ id: folder.id, name: folder.name, createdAt: folder.createdAt }, 201);
  }),
);
