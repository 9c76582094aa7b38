import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { hasVectorSearch, openDatabase } from './client';
import { createStore } from './store';
import { createVectorWorker } from './vector-worker';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';

const DIMS = 64;
/** A deterministic stream of numbers in [0, 1). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}
const next = random(11);
function unit(): Float32Array {
  const v = Float32Array.from({ length: DIMS }, () => next() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** A file database with two collections: A with 1,500 passages (two of sqlite-vec's 1,024-slot chunks), B with 300. */
async function setUp() {
  const file = path.join(makeTempDir('hearth-vector-worker'), 'hearth.db');
  const store = createStore(openDatabase(file));
  const vectors = new Map<number, Float32Array>();
  const fileOf = new Map<number, string>();
  for (const [collection, files] of [
    ['A', ['a1', 'a2', 'a3']],
    ['B', ['b1']],
  ] as const) {
    await store.createCollection({ id: collection, name: collection, now: 0 });
    for (const id of files) {
      await store.addCollectionFile({
        id,
        collectionId: collection,
        name: `${id}.md`,
        mime: 'text/markdown',
        size: 1,
        sha256: id,
        kind: 'text',
        now: 0,
      });
      const count = collection === 'A' ? 500 : 300;
      await store.setFileChunks({
        fileId: id,
        chunks: Array.from({ length: count }, (_, i) => ({ text: `${id} passage ${i}`, page: null, lineStart: i + 1, lineEnd: i + 1 })),
        status: 'indexing',
      });
    }
  }
  const ids = store.db.$client.prepare('select d.id as id, d.file_id as file from doc_chunks d order by d.id').all() as {
    id: number;
    file: string;
  }[];
  for (const { id, file: f } of ids) {
    vectors.set(id, unit());
    fileOf.set(id, f);
  }
  // In batches, as the indexer stores them.
  for (let i = 0; i < ids.length; i += 200)
    await store.storeVectors({ model: 'm1', vectors: ids.slice(i, i + 200).map(({ id }) => ({ chunkId: id, vector: vectors.get(id)! })) });
  return { file, store, vectors, fileOf };
}

describe('the vector search worker', { skip: !hasVectorSearch(openDatabase(':memory:').$client) && 'no sqlite-vec here' }, async () => {
  const { file, store, vectors, fileOf } = await setUp();
  const worker = createVectorWorker(file);
  after(() => worker.close());

  test('holds every stored vector in memory, read from sqlite-vec storage, and finds what sqlite-vec finds', async () => {
    assert.equal((await worker.held())?.rows, 1800);
    // With every passage a candidate, the exact ranking decides: the same ids and similarities as the search in sqlite-vec.
    for (let q = 0; q < 5; q++) {
      const vector = unit();
      for (const collectionIds of [['A'], ['B'], ['A', 'B']]) {
        const args = { vector, collectionIds, limit: 8, candidates: 2000 };
        const inMemory = await worker.near(args);
        const bySqliteVec = await store.chunksNear(args);
        assert.deepEqual(
          inMemory.map((h) => h.id),
          bySqliteVec.map((h) => h.id),
        );
        inMemory.forEach((h, i) => assert.ok(Math.abs(h.similarity - bySqliteVec[i].similarity) < 1e-6));
        for (const h of inMemory)
          assert.ok(collectionIds.includes(fileOf.get(h.id)!.startsWith('a') ? 'A' : 'B'), 'only the collections asked');
      }
    }
  });

  test("a stored vector's own bits are nearest to it: each id is read beside its own vector", async () => {
    for (const id of [1, 2, 700, 1024, 1025, 1500, 1501, 1800]) {
      const collectionIds = fileOf.get(id)!.startsWith('a') ? ['A'] : ['B'];
      const [hit] = await worker.near({ vector: vectors.get(id)!, collectionIds, limit: 1, candidates: 1 });
      assert.equal(hit?.id, id);
      assert.ok(Math.abs(hit.similarity - 1) < 1e-5);
    }
  });

  test('a change to the vectors is seen at the next search: a file removed, vectors added, a new model', async () => {
    const before = (await worker.held())!;
    await store.removeCollectionFile({ collectionId: 'A', id: 'a2' });
    const removed = (await worker.held())!;
    assert.notEqual(removed.generation, before.generation);
    assert.equal(removed.rows, 1300);
    const gone = [...fileOf].filter(([, f]) => f === 'a2').map(([id]) => id);
    const hits = await worker.near({ vector: vectors.get(gone[0])!, collectionIds: ['A'], limit: 50, candidates: 2000 });
    assert.ok(hits.length > 0 && hits.every((h) => !gone.includes(h.id)), "a removed file's passages are not found");

    await store.resetVectors();
    assert.equal(await worker.held(), null, 'no vectors: nothing held');
    const fresh = store.db.$client.prepare('select id from doc_chunks order by id limit 10').all() as { id: number }[];
    const second = new Map(fresh.map(({ id }) => [id, unit()]));
    await store.storeVectors({ model: 'm2', vectors: [...second].map(([chunkId, vector]) => ({ chunkId, vector })) });
    assert.equal((await worker.held())?.rows, 10);
    const [id, vector] = [...second][3];
    const [hit] = await worker.near({ vector, collectionIds: ['A', 'B'], limit: 1, candidates: 1 });
    assert.equal(hit.id, id, "the new model's vectors, not the old ones");
  });
});
