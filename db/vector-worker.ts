import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * The nearest passages to a vector, searched in a worker thread on a read-only connection of
 * its own, so the scan runs while the main thread ranks the same query by its words:
 * retrieval waits for the slower of the two, not their sum.
 *
 * The worker holds the quantised vectors in memory (id, collection, bits and a distance: 62
 * bytes a passage at 384 dimensions, 110 at 768, so 62 and 110 MB at a million) and scans
 * them itself: 25–35 ms at a million here, against 70–120 ms for sqlite-vec's own scan of the
 * same bits, whose pages it reads again for every query. It reads them straight from
 * sqlite-vec's storage (the vec0 table's shadow tables `chunk_bits_chunks` and
 * `chunk_bits_vector_chunks00`: chunks of slots with a validity bitmap, their rowids as
 * int64 and their vectors side by side), in one read transaction with vector_index's
 * generation, and reloads when that generation changes (db/queries/knowledge.ts bumps it with
 * every change to the bits). Where that storage is not as expected (another sqlite-vec) or
 * the load fails, it asks sqlite-vec instead, as db/queries/knowledge.ts chunksNear does.
 * Candidates are ranked again by their exact cosine either way.
 */

export type NearArgs = { vector: Float32Array; collectionIds: string[]; limit: number; candidates: number };
export type NearHit = { id: number; similarity: number };
/** What the worker holds in memory: how many vectors, of which generation; null when it searches through sqlite-vec. */
export type HeldVectors = { rows: number; generation: number } | null;

/**
 * The worker's script (db/vector-scan.mjs, checked by tsc like the rest), found from the working
 * directory as the jobs' scripts are, so the bundler leaves it as it is.
 */
const VECTOR_SCAN = [process.cwd(), 'db', 'vector-scan.mjs'].join(path.sep);

export type VectorWorker = {
  near(args: NearArgs): Promise<NearHit[]>;
  /** What it holds in memory now (loading the bits first when they changed). */
  held(): Promise<HeldVectors>;
  close(): void;
};

type Reply = { id: number; hits?: NearHit[]; held?: HeldVectors; error?: string };

/** A worker over the database file (not ':memory:', which a second connection cannot see). */
export function createVectorWorker(file: string): VectorWorker {
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve: (reply: Reply) => void; reject: (err: Error) => void }>();
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
    worker = null;
  };
  const start = () => {
    const w = new Worker(VECTOR_SCAN, { workerData: { file } });
    // Idle, it does not keep Hearth (or a test run) alive.
    w.unref();
    w.on('message', (m: Reply) => {
      const entry = waiting.get(m.id);
      waiting.delete(m.id);
      if (waiting.size === 0) w.unref();
      if (!entry) return;
      if (m.error !== undefined) entry.reject(new Error(m.error));
      else entry.resolve(m);
    });
    w.on('error', (err) => failAll(err));
    w.on('exit', () => failAll(new Error('the vector search worker stopped')));
    return w;
  };
  const ask = (message: Record<string, unknown>, transfer: ArrayBuffer[] = []) => {
    worker ??= start();
    const id = next++;
    return new Promise<Reply>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker!.ref();
      worker!.postMessage({ id, ...message }, transfer);
    });
  };
  return {
    async near(args) {
      const copy = Float32Array.from(args.vector);
      const reply = await ask({ vector: copy.buffer, collectionIds: args.collectionIds, limit: args.limit, candidates: args.candidates }, [
        copy.buffer,
      ]);
      return reply.hits ?? [];
    },
    async held() {
      return (await ask({ held: true })).held ?? null;
    },
    close() {
      void worker?.terminate();
      worker = null;
    },
  };
}
