import { randomUUID } from 'node:crypto';
import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** The knowledge collections, newest first, with their files' progress. */
  on(endpoints.listCollections, ({ rt }) => {
    const { store, knowledge } = rt;
    return reply({
      collections: store.listCollections(),
      search: { byMeaning: knowledge.embedder() !== undefined, embeddingsError: knowledge.indexer.state().embeddingsError },
    });
  }),
  /** {name, everyThread?} → 201 {id, …}. */
  on(endpoints.createCollection, async ({ body, rt }) => {
    const { name, everyThread } = await body();
    const { store, knowledge } = rt;
    const created = store.createCollection({ id: randomUUID(), name, everyThread, now: Date.now() });
    return reply(knowledge.collection(created.id), 201);
  }),
);
