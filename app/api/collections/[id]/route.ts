import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The collection and its files, each with its status (`ready` once indexed). */
  on(endpoints.getCollection, ({ params, rt }) => reply(rt.knowledge.detail(params.id))),
  /** {name?, everyThread?}. */
  on(endpoints.patchCollection, async ({ params: { id }, body, rt }) => {
    const patch = await body();
    const { store, knowledge } = rt;
    if (!store.updateCollection({ id, ...patch, now: Date.now() }))
      throw new HearthError('not_found', 'There is no collection with that id.');
    return reply(knowledge.collection(id));
  }),
  /** The collection, its files and its index go (threads using it stay). */
  on(endpoints.deleteCollection, ({ params, rt }) => {
    rt.knowledge.deleteCollection(params.id);
    return noContent();
  }),
);
