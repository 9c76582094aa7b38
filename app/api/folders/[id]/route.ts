import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { folderBody, idParam } from '@/lib/contract/requests';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, POST, PUT, OPTIONS } = otherMethods('PATCH', 'DELETE');

type Params = { params: Promise<{ id: string }> };

/** PATCH /api/folders/:id {name}: renames it. */
export function PATCH(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id, 'folder');
    const { name } = await readJson(request, folderBody);
    const { store, updates } = getRuntime();
    const folder = store.renameFolder({ id, name });
    if (!folder) throw new HearthError('not_found', 'There is no folder with that id.');
    updates.publish({ type: 'library' });
    return json({ id: folder.id, name: folder.name, createdAt: folder.createdAt });
  });
}

/** DELETE /api/folders/:id: the folder goes; its threads stay, in no folder. */
export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id, 'folder');
    const { store, updates } = getRuntime();
    if (!store.deleteFolder({ id })) throw new HearthError('not_found', 'There is no folder with that id.');
    updates.publish({ type: 'library' });
    return new Response(null, { status: 204 });
  });
}
