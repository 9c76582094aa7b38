import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** {name}: renames it. */
  on(endpoints.renameFolder, async ({ params, body, rt }) => {
    const { name } = await body();
    const { store, updates } = rt;
    const folder = await store.renameFolder({ id: params.id, name });
    if (!folder) throw new HearthError('not_found', 'There is no folder with that id.');
    updates.publish({ type: 'library' });
    return reply({ id: folder.id, name: folder.name, createdAt: folder.createdAt });
  }),
  /** The folder goes; its threads stay, in no folder. */
  on(endpoints.deleteFolder, async ({ params, rt }) => {
    const { store, updates } = rt;
    if (!(await store.deleteFolder({ id: params.id }))) throw new HearthError('not_found', 'There is no folder with that id.');
    updates.publish({ type: 'library' });
    return noContent();
  }),
);
