import { endpoints } from '@/lib/contract/endpoints';
import { normalSampling } from '@/lib/contract/sampling';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { requireModel } from '@/lib/services/models';
import { deleteThread, fileThreads, requireThread, showBranch, threadView, useCollections } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.getThread, async ({ params, rt }) => {
    const { store, turns } = rt;
    return reply(await threadView(store, turns, params.id));
  }),
  on(endpoints.patchThread, async ({ params: { id }, body, rt }) => {
    const { branch, folderId, archived, collectionIds, sampling, ...patch } = await body();
    const runtime = rt;
    const { store, turns } = runtime;
    await requireThread(store, id);
    if (patch.model) await requireModel(runtime, patch.model);
    if (branch) await showBranch(store, turns, id, branch);
    if (folderId !== undefined || archived !== undefined) await fileThreads(store, [id], { folderId, archived });
    if (collectionIds) await useCollections(store, id, collectionIds);
    if (sampling !== undefined) await store.updateThread({ id, patch: { sampling: normalSampling(sampling) } });
    if (Object.keys(patch).length > 0) await store.updateThread({ id, patch });
    return reply(await threadView(store, turns, id));
  }),
  on(endpoints.deleteThread, async ({ params, rt }) => {
    await deleteThread(rt, params.id);
    return noContent();
  }),
);
