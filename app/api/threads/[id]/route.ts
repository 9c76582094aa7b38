import { endpoints } from '@/lib/contract/endpoints';
import { normalSampling } from '@/lib/contract/sampling';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { requireModel } from '@/lib/services/models';
import { deleteThread, fileThreads, requireThread, showBranch, threadView, useCollections } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.getThread, ({ params, rt }) => {
    const { store, turns } = rt;
    return reply(threadView(store, turns, params.id));
  }),
  on(endpoints.patchThread, async ({ params: { id }, body, rt }) => {
    const { branch, folderId, archived, collectionIds, sampling, ...patch } = await body();
    const runtime = rt;
    const { store, turns } = runtime;
    requireThread(store, id);
    if (patch.model) await requireModel(runtime, patch.model);
    if (branch) showBranch(store, turns, id, branch);
    if (folderId !== undefined || archived !== undefined) fileThreads(store, [id], { folderId, archived });
    if (collectionIds) useCollections(store, id, collectionIds);
    if (sampling !== undefined) store.updateThread({ id, patch: { sampling: normalSampling(sampling) } });
    if (Object.keys(patch).length > 0) store.updateThread({ id, patch });
    return reply(threadView(store, turns, id));
  }),
  on(endpoints.deleteThread, ({ params, rt }) => {
    deleteThread(rt, params.id);
    return noContent();
  }),
);
