import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshEngineStore, seedExchange } from '@/lib/dev/testing/store';

/**
 * Knowledge collections and the vectors of chunks and past messages, as stored: the same
 * answers on SQLite (whole vectors and sqlite-vec's bits) and on PostgreSQL (whole vectors alone).
 */

/** A unit vector of eight dimensions (sqlite-vec's bits come in bytes) pointing mostly along axis `i`. */
const toward = (i: number, lean = 0) => {
  const v = new Float32Array(8);
  v[i] = 1;
  v[(i + 1) % 8] = lean;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

const chunk = (text: string, line: number) => ({ text, page: null, lineStart: line, lineEnd: line });

test('a file’s chunks get their vectors batch by batch; the file is ready with its last, and its collection counts it', async () => {
  const s = await freshEngineStore();
  await s.createCollection({ id: 'c', name: 'Recipes', now: 1 });
  await s.addCollectionFile({
    id: 'f',
    collectionId: 'c',
    name: 'bread.md',
    mime: 'text/markdown',
    size: 10,
    sha256: 'aa',
    kind: 'text',
    now: 2,
  });
  await s.setFileChunks({ fileId: 'f', chunks: [chunk('flour', 1), chunk('water', 2), chunk('salt', 3)], status: 'indexing' });
  const waiting = await s.chunksToEmbed({ model: 'm', limit: 10 });
  assert.deepEqual(
    waiting.map((c) => c.text),
    ['flour', 'water', 'salt'],
  );

  await s.storeVectors({ model: 'm', vectors: waiting.slice(0, 2).map((c, i) => ({ chunkId: c.id, vector: toward(i) })) });
  let file = await s.getCollectionFile({ id: 'f' });
  assert.equal(file?.embedded, 2);
  assert.equal(file?.status, 'indexing');
  assert.deepEqual(await s.vectorIndexState(), { id: 1, model: 'm', dims: 8 });

  await s.storeVectors({ model: 'm', vectors: [{ chunkId: waiting[2].id, vector: toward(2) }] });
  file = await s.getCollectionFile({ id: 'f' });
  assert.equal(file?.embedded, 3);
  assert.equal(file?.status, 'ready');
  const [collection] = await s.listCollections();
  assert.deepEqual(
    {
      files: collection.files,
      ready: collection.ready,
      failed: collection.failed,
      chunks: collection.chunks,
      embedded: collection.embedded,
    },
    { files: 1, ready: 1, failed: 0, chunks: 3, embedded: 3 },
  );
  assert.deepEqual(await s.chunksToEmbed({ model: 'm', limit: 10 }), []);

  await assert.rejects(s.storeVectors({ model: 'other', vectors: [{ chunkId: waiting[0].id, vector: toward(0) }] }), /holds vectors of m/);

  // Another model: every vector goes, the file goes back to indexing, its chunks wait again.
  await s.resetVectors();
  assert.equal(await s.vectorIndexState(), undefined);
  file = await s.getCollectionFile({ id: 'f' });
  assert.deepEqual([file?.status, file?.embedded], ['indexing', 0]);
  assert.equal((await s.chunksToEmbed({ model: 'other', limit: 10 })).length, 3);

  assert.equal(await s.removeCollectionFile({ collectionId: 'c', id: 'f' }), 'aa');
  assert.equal((await s.getCollection({ id: 'c' }))?.files, 0);
  assert.deepEqual(await s.deleteCollection({ id: 'c' }), []);
  assert.equal(await s.deleteCollection({ id: 'c' }), null);
});

test('past messages by meaning: those without a vector wait for one; the nearest come first, with their thread', async () => {
  const s = await freshEngineStore();
  await seedExchange(s, { thread: 'bread' }, { question: 'How long does dough rise?', answer: 'About two hours.' });
  await seedExchange(s, { thread: 'bikes' }, { question: 'Which tyre pressure?', answer: 'Around four bar.', now: 2000 });
  const waiting = await s.messagesToEmbed({ limit: 10 });
  assert.deepEqual(
    waiting.map((m) => m.id),
    ['bread-u', 'bread-a', 'bikes-u', 'bikes-a'],
  );

  const vectors = waiting.map((m, i) => ({ messageId: m.id, vector: toward(i) }));
  await s.storeMessageVectors({ model: 'm', vectors: [...vectors, { messageId: 'gone', vector: toward(0) }] });
  assert.deepEqual(await s.messagesToEmbed({ limit: 10 }), []);

  const near = await s.messagesNear({ vector: toward(2, 0.5), limit: 2 });
  assert.deepEqual(
    near.map((m) => [m.id, m.threadId]),
    [
      ['bikes-u', 'bikes'],
      ['bikes-a', 'bikes'],
    ],
  );
  assert.ok(near[0].similarity > near[1].similarity && near[1].similarity > 0);
  assert.deepEqual(await s.messagesNear({ vector: new Float32Array(16), limit: 2 }), [], 'a vector of other dimensions finds nothing');
});
