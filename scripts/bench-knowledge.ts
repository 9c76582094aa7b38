/**
 * Knowledge collections for `npm run bench`:
 *  - indexing: documents cut, full-text indexed and embedded by the double's /v1/embeddings
 *    (over HTTP, as from llama-server), in passages per second, with the embedding calls'
 *    own time apart (on a GPU they are the model's time, not Hearth's);
 *  - retrieval (words and meaning fused, neighbours joined, as search_documents does it) at
 *    100,000 and 1,000,000 passages with vectors of 384 and of 768 dimensions, p50 and p95,
 *    and the bytes the database keeps per passage. Targets: p95 ≤ 50 ms at 100,000 and
 *    ≤ 150 ms at 1,000,000. BENCH_KNOWLEDGE_SIZES narrows the sizes (e.g. "100000").
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../db/client';
import { createStore } from '../db/store';
import { startLlamaDouble } from '../e2e/double/llama-double';
import { KnowledgeIndexer } from '../lib/data/knowledge/indexer';
import { retrieve } from '../lib/data/knowledge/retrieve';
import { createEmbeddingsClient, type EmbeddingsClient } from '../lib/models/embeddings';
import { createVectorWorker } from '../db/vector-worker';
import { makeTempDir } from '../lib/dev/testing/temp-dir';
import { pct } from './bench-library';

const VOCABULARY = Array.from({ length: 5000 }, (_, i) => `w${(i * 2654435761) % 1_000_003}`);
/** A deterministic stream of numbers in [0, 1). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}
const sentence = (next: () => number, words: number) =>
  Array.from({ length: words }, () => VOCABULARY[Math.floor(next() * 2000 + next() * 3000)]).join(' ');

function unitVector(next: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  let n = 0;
  for (let i = 0; i < dims; i++) {
    v[i] = next() - 0.5;
    n += v[i] * v[i];
  }
  n = Math.sqrt(n);
  for (let i = 0; i < dims; i++) v[i] /= n;
  return v;
}

export async function measureIndexing(files = 20, linesPerFile = 600) {
  const double = await startLlamaDouble({ embeddings: { dims: 384, ubatch: 2048 } });
  const dir = makeTempDir('hearth-bench-knowledge');
  const store = createStore(openDatabase(path.join(dir, 'hearth.db')));
  const next = random(7);
  const texts = Array.from({ length: files }, (_, f) =>
    Array.from({ length: linesPerFile }, (_, i) =>
      i % 12 === 0 ? `## Section ${f}.${i}\n` : `${sentence(next, 14)}.${i % 4 === 3 ? '\n' : ''}`,
    ).join('\n'),
  );
  await store.createCollection({ id: 'bench', name: 'Bench', now: 0 });
  for (const [i, text] of texts.entries())
    await store.addCollectionFile({
      id: `f${i}`,
      collectionId: 'bench',
      name: `doc-${i}.md`,
      mime: 'text/markdown',
      size: text.length,
      sha256: `${i}`,
      kind: 'text',
      now: i,
    });
  const real = createEmbeddingsClient({ baseURL: double.url, model: 'bge-small' });
  let embedMs = 0;
  const timed: EmbeddingsClient = {
    async embed(input, signal) {
      const t0 = performance.now();
      try {
        return await real.embed(input, signal);
      } finally {
        embedMs += performance.now() - t0;
      }
    },
  };
  const indexer = new KnowledgeIndexer({
    store,
    readText: async (file) => texts[Number(file.sha256)],
    embedder: () => ({ client: timed, model: 'bge-small' }),
    batch: 32,
  });
  const t0 = performance.now();
  indexer.wake();
  await indexer.settled();
  const totalMs = performance.now() - t0;
  const chunks = (await store.listCollections())[0].chunks;
  await double.close();
  store.db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    files,
    chunks,
    totalMs,
    embedMs,
    perSecond: chunks / (totalMs / 1000),
    perSecondWithoutEmbedding: chunks / ((totalMs - embedMs) / 1000),
  };
}

/** A database of `size` passages with vectors of `dims`, then `queries` searches as search_documents makes them. */
export async function measureRetrieval(size: number, dims: number, queries = 60) {
  const dir = makeTempDir('hearth-bench-retrieval');
  const file = path.join(dir, 'hearth.db');
  const store = createStore(openDatabase(file));
  const sqlite = store.db.$client;
  const next = random(size + dims);
  await store.createCollection({ id: 'bench', name: 'Bench', now: 0 });
  const files = Math.max(1, Math.floor(size / 500));
  for (let f = 0; f < files; f++)
    await store.addCollectionFile({
      id: `f${f}`,
      collectionId: 'bench',
      name: `doc-${f}.md`,
      mime: 'text/markdown',
      size: 0,
      sha256: `${f}`,
      kind: 'text',
      now: f,
    });
  // The first vector through the store makes the quantised search table; the rest go in straight, in large transactions.
  await store.setFileChunks({
    fileId: 'f0',
    chunks: [{ text: sentence(next, 60), page: null, lineStart: 1, lineEnd: 8 }],
    status: 'indexing',
  });
  await store.storeVectors({ model: 'bench', vectors: [{ chunkId: 1, vector: unitVector(next, dims) }] });
  const insertChunk = sqlite.prepare(
    'insert into doc_chunks (file_id, seq, text, page, line_start, line_end, embedded_with) values (?, ?, ?, null, ?, ?, ?)',
  );
  const insertVector = sqlite.prepare('insert into chunk_vectors (chunk_id, vector) values (?, ?)');
  const insertBits = sqlite.prepare("insert into chunk_bits (rowid, collection, bits) values (?, 'bench', vec_quantize_binary(?))");
  const t0 = performance.now();
  for (let start = 2; start <= size; start += 50_000) {
    sqlite.transaction(() => {
      for (let id = start; id < Math.min(size + 1, start + 50_000); id++) {
        const seq = id % 500;
        const { lastInsertRowid } = insertChunk.run(
          `f${Math.floor(id / 500) % files}`,
          seq + 1,
          sentence(next, 60),
          seq * 8 + 1,
          seq * 8 + 8,
          'bench',
        );
        const bytes = Buffer.from(unitVector(next, dims).buffer);
        insertVector.run(lastInsertRowid, bytes);
        insertBits.run(BigInt(lastInsertRowid), bytes);
      }
    })();
  }
  const loadSeconds = (performance.now() - t0) / 1000;
  // As the store does with every change to the bits (the worker holding them reloads).
  sqlite.prepare('update vector_index set generation = generation + 1 where id = 1').run();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const bytes = fs.statSync(file).size;
  const embedder = { model: 'bench', client: { embed: async (texts: readonly string[]) => texts.map(() => unitVector(next, dims)) } };
  // As the app searches: the nearest vectors in a worker while the words are ranked here.
  const worker = createVectorWorker(file);
  const ms: number[] = [];
  // The first search also starts the worker, which reads the bits into memory.
  let firstMs = 0;
  for (let q = 0; q < queries + 5; q++) {
    const query = sentence(next, 4);
    const t = performance.now();
    const found = await retrieve({ store, query, collectionIds: ['bench'], embedder, near: (a) => worker.near(a) });
    if (q === 0) firstMs = performance.now() - t;
    if (q >= 5) ms.push(performance.now() - t);
    if (found.passages.length === 0) throw new Error('the bench search found nothing');
  }
  worker.close();
  sqlite.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { size, dims, loadSeconds, bytesPerChunk: bytes / size, firstMs, p50: pct(ms, 50), p95: pct(ms, 95) };
}

export const RETRIEVAL_SIZES = (process.env.BENCH_KNOWLEDGE_SIZES ?? '100000,1000000').split(',').map(Number).filter(Boolean);
