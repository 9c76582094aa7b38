import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';
import { ownCollection, reachCollection } from '@/lib/services/shared-collections';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The collection and its files, each with its status (`ready` once indexed); one shared with everyone says whose it is. */
  on(endpoints.getCollection, ({ params, rt }) => {
    const { knowledge, sharedBy } = reachCollection(rt.knowledge, rt.sharedWithMe(), params.id);
    return reply({ ...knowledge.detail(params.id), ...(sharedBy ? { sharedBy } : {}) });
  }),
  /** {name?, everyThread?, shared?}: shared only by the owner or an admin. */
  on(endpoints.patchCollection, async ({ params: { id }, body, rt }) => {
    const patch = await body();
    const { store, knowledge } = rt;
    ownCollection(knowledge, rt.sharedWithMe(), id);
    if (patch.shared !== undefined && rt.person.role === 'member')
      throw new HearthError('forbidden', "Only this Hearth's owner or an admin shares a collection with everyone.");
    if (!store.updateCollection({ id, ...patch, now: Date.now() }))
      throw new HearthError('not_found', 'There is no collection with that id.');
    return reply(knowledge.collection(id));
  }),
  /** The collection, its files and its index go (threads using it stay). */
  on(endpoints.deleteCollection, ({ params, rt }) => {
    ownCollection(rt.knowledge, rt.sharedWithMe(), params.id);
    rt.knowledge.deleteCollection(params.id);
    return noContent();
  }),
);
