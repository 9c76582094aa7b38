import { randomUUID } from 'node:crypto';
import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { createCollectionBody } from '@/lib/contract/requests';
import type { CollectionView } from '@/lib/contract/responses';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');

/** GET /api/collections: the knowledge collections, newest first, with their files' progress. */
export function GET(request: Request) {
  return handle(request, () => {
    const { store, knowledge } = getRuntime();
    return json({
      collections: store.listCollections() satisfies CollectionView[],
      search: { byMeaning: knowledge.embedder() !== undefined, embeddingsError: knowledge.indexer.state().embeddingsError },
    });
  });
}

/** POST /api/collections {name, everyThread?} → 201 {id, …}. */
export function POST(request: Request) {
  return handle(request, async () => {
    const { name, everyThread } = await readJson(request, createCollectionBody);
    const { store, knowledge } = getRuntime();
    const created = store.createCollection({ id: randomUUID(), name, everyThread, now: Date.now() });
    return json(knowledge.collection(created.id), 201);
  });
}
