import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { idParam, patchThreadBody } from '@/lib/contract/requests';
import { normalSampling } from '@/lib/contract/sampling';
import { requireModel } from '@/lib/services/models';
import { getRuntime } from '@/lib/services/runtime';
import { deleteThread, fileThreads, requireThread, showBranch, threadView, useCollections } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, OPTIONS } = otherMethods('GET', 'PATCH', 'DELETE');

type Params = { params: Promise<{ id: string }> };

export function GET(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id);
    const { store, turns } = getRuntime();
    return json(threadView(store, turns, id));
  });
}

export function PATCH(request: Request, { params }: Params) {
  return handle(request, async () => {
    const id = parseId(idParam, (await params).id);
    const { branch, folderId, archived, collectionIds, sampling, ...patch } = await readJson(request, patchThreadBody);
    const runtime = getRuntime();
    const { store, turns } = runtime;
    requireThread(store, id);
    if (patch.model) await requireModel(runtime, patch.model);
    if (branch) showBranch(store, turns, id, branch);
    if (folderId !== undefined || archived !== undefined) fileThreads(store, [id], { folderId, archived });
    if (collectionIds) useCollections(store, id, collectionIds);
    if (sampling !== undefined) store.updateThread({ id, patch: { sampling: normalSampling(sampling) } });
    if (Object.keys(patch).length > 0) store.updateThread({ id, patch });
    return json(threadView(store, turns, id));
  });
}

export function DELETE(request: Request, { params }: Params) {
  return handle(request, async () => {
    deleteThread(getRuntime(), parseId(idParam, (await params).id));
    return new Response(null, { status: 204 });
  });
}
