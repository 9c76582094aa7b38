import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';
import { ownCollection, reachCollection } from '@/lib/services/shared-collections';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The collection and its files, each with its status (`ready` once indexed); one shared with everyone says whose it is. */
  on(endpoints.getCollection, async ({ params, rt }) => {
    const { knowledge, sharedBy } = await reachCollection(rt.knowledge, await rt.sharedWithMe(), params.id);
    return reply({ ...(await knowledge.detail(params.id)), ...(sharedBy ? { sharedBy } : {}) });
  }),
  /** {name?, everyThread?, shared?}: shared only by the owner or an admin. */
  on(endpoints.patchCollection, async ({ params: { id }, body, rt }) => {
    const patch = await body();
    const { store, knowledge } = rt;
    await ownCollection(knowledge, await rt.sharedWithMe(), id);
    if (patch.shared !== undefined && rt.person.role === 'member')
      throw new HearthError('forbidden', "Only this Hearth's owner or an admin shares a collection with everyone.");
    if (!(await store.updateCollection({ id, ...patch, now: Date.now() })))
      throw new HearthError('not_found', 'There is no collection with that id.');
    return reply(await knowledge.collection(id));
  }),
  /** The collection, its files and its index go (threads using it stay). */
  on(endpoints.deleteCollection, async ({ params, rt }) => {
    await ownCollection(rt.knowledge, await rt.sharedWithMe(), params.id);
    await rt.knowledge.deleteCollection(params.id);
    return noContent();
  }),
);
