import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { idParam, patchCollectionBody } from '@/lib/contract/requests';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, OPTIONS } = otherMethods('GET', 'PATCH', 'DELETE');

type Params = { params: Promise<{ id: string }> };

/** GET /api/collections/:id: the collection and its files, each with its status (`ready` once indexed). */
export function GET(request: Request, { params }: Params) {
  return handle(request, async () => json(getRuntime().knowledge.detail(parseId(idParam, (await params).id, 'collection'))));
}

/** PATCH /api/collections/:id {name?, everyThread?}. */
export function PATCH(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id, 'collection');
    const patch = await readJson(request, patchCollectionBody);
    const { store, knowledge } = getRuntime();
    if (!store.updateCollection({ id, ...patch, now: Date.now() }))
      throw new HearthError('not_found', 'There is no collection with that id.');
    return json(knowledge.collection(id));
  });
}

/** DELETE /api/collections/:id: the collection, its files and its index go (threads using it stay). */
export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    getRuntime().knowledge.deleteCollection(parseId(idParam, (await params).id, 'collection'));
    return new Response(null, { status: 204 });
  });
}
