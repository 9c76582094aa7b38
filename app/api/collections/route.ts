import { randomUUID } from 'node:crypto';
import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import type { CollectionView } from '@/lib/contract/responses';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The knowledge collections, newest first, with their files' progress; then those others shared with everyone. */
  on(endpoints.listCollections, async ({ rt }) => {
    const { store, knowledge } = rt;
    const shared: CollectionView[] = await Promise.all(
      (await rt.sharedWithMe()).map(async (c) => ({ ...(await c.knowledge.collection(c.id)), sharedBy: c.sharedBy })),
    );
    return reply({
      collections: [...(await store.listCollections()), ...shared],
      search: { byMeaning: knowledge.embedder() !== undefined, embeddingsError: knowledge.indexer.state().embeddingsError },
    });
  }),
  /** {name, everyThread?} → 201 {id, …}. */
  on(endpoints.createCollection, async ({ body, rt }) => {
    const { name, everyThread } = await body();
    const { store, knowledge } = rt;
    const created = await store.createCollection({ id: randomUUID(), name, everyThread, now: Date.now() });
    return reply(await knowledge.collection(created.id), 201);
  }),
);
