import { Worker } from 'node:worker_threads';

/**
 * The nearest passages to a vector, searched in a worker thread on a read-only connection of
 * its own, so the scan over a million vectors (about 110 ms at 384 dimensions here) runs
 * while the main thread ranks the same query by its words (about 70 ms): retrieval waits for
 * the slower of the two, not their sum. The same query as db/queries/knowledge.ts chunksNear.
 */

export type NearArgs = { vector: Float32Array; collectionIds: string[]; limit: number; candidates: number };
export type NearHit = { id: number; similarity: number };

/** The search, as plain JavaScript for the worker (evaluated, so no bundler has to find a file). */
const VECTOR_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const sqliteVec = require('sqlite-vec');
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
sqliteVec.load(db);
db.pragma('busy_timeout = 5000');
const state = db.prepare('select dims from vector_index where id = 1');
const hasBits = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'chunk_bits'");
parentPort.on('message', ({ id, vector, collectionIds, limit, candidates }) => {
  try {
    const query = new Float32Array(vector);
    const kept = state.get();
    if (!hasBits.get() || !kept || kept.dims !== query.length || collectionIds.length === 0) return parentPort.postMessage({ id, hits: [] });
    const marks = collectionIds.map(() => '?').join(', ');
    const found = db
      .prepare('select rowid as id from chunk_bits where bits match vec_quantize_binary(?) and k = ? and collection in (' + marks + ')')
      .all(Buffer.from(query.buffer), candidates, ...collectionIds);
    if (found.length === 0) return parentPort.postMessage({ id, hits: [] });
    const rows = db
      .prepare('select chunk_id as id, vector from chunk_vectors where chunk_id in (' + found.map(() => '?').join(', ') + ')')
      .all(...found.map((f) => f.id));
    const hits = rows
      .map((r) => {
        const v = new Float32Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength / 4);
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
        return { id: r.id, similarity: dot };
      })
      .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
      .slice(0, limit);
    parentPort.postMessage({ id, hits });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

export type VectorWorker = { near(args: NearArgs): Promise<NearHit[]>; close(): void };

/** A worker over the database file (not ':memory:', which a second connection cannot see). */
export function createVectorWorker(file: string): VectorWorker {
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve: (hits: NearHit[]) => void; reject: (err: Error) => void }>();
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = null;
  };
  const start = () => {
    const w = new Worker(VECTOR_WORKER, { eval: true, workerData: { file } });
    // Idle, it does not keep Hearth (or a test run) alive.
    w.unref();
    w.on('message', (m: { id: number; hits?: NearHit[]; error?: string }) => {
      const entry = waiting.get(m.id);
      waiting.delete(m.id);
      if (waiting.size === 0) w.unref();
      if (!entry) return;
      if (m.error !== undefined) entry.reject(new Error(m.error));
      else entry.resolve(m.hits ?? []);
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', () => failAll(new Error('the vector search worker stopped')));
    return w;
  };
  return {
    near(args) {
      worker ??= start();
      const id = next++;
      const copy = Float32Array.from(args.vector);
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker!.ref();
        worker!.postMessage(
          { id, vector: copy.buffer, collectionIds: args.collectionIds, limit: args.limit, candidates: args.candidates },
          [copy.buffer],
        );
      });
    },
    close() {
      void worker?.terminate();
      worker = null;
    },
  };
}
