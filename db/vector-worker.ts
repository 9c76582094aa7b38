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

/** The search, as plain JavaScript for the worker (evaluated, so no bundler has to find a file). */
const VECTOR_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const sqliteVec = require('sqlite-vec');
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
sqliteVec.load(db);
db.pragma('busy_timeout = 5000');
const state = db.prepare('select dims, generation from vector_index where id = 1');
const hasBits = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'chunk_bits'");
const quantise = db.prepare('select vec_quantize_binary(?) as bits');

/** The bits in memory: { generation, dims, words, n, ids, part, parts, bits, dist } or { generation, failed }. */
let held = null;

function load(dims, generation) {
  const bytesPer = dims / 8;
  const words = Math.ceil(dims / 32);
  const valid = (validity, i) => (validity[i >> 3] & (1 << (i & 7))) !== 0;
  // First the slots in use (the validity bitmaps alone), then the vectors a chunk at a time.
  let n = 0;
  for (const r of db.prepare('select size, validity from chunk_bits_chunks').iterate()) {
    if (r.validity.length * 8 < r.size) throw new Error('unexpected chunk layout');
    for (let i = 0; i < r.size; i++) if (valid(r.validity, i)) n++;
  }
  // The same count as sqlite-vec's own rowid table, or this is not the layout read here.
  const listed = db.prepare('select count(*) as n from chunk_bits_rowids').get().n;
  if (listed !== n) throw new Error('the vector chunks hold ' + n + ' vectors, the rowid table ' + listed);
  const ids = new Float64Array(n);
  const part = new Uint32Array(n);
  const bits = new Uint32Array(n * words);
  const bytes = new Uint8Array(bits.buffer);
  const parts = new Map();
  let k = 0;
  const chunks = db.prepare(
    'select c.size as size, c.partition00 as part, c.validity as validity, c.rowids as rowids, v.vectors as vectors ' +
      'from chunk_bits_chunks c join chunk_bits_vector_chunks00 v on v.rowid = c.chunk_id',
  );
  for (const r of chunks.iterate()) {
    if (r.rowids.length < r.size * 8 || r.vectors.length < r.size * bytesPer) throw new Error('unexpected chunk layout');
    let p = parts.get(r.part);
    if (p === undefined) parts.set(r.part, (p = parts.size));
    const rowids = new DataView(r.rowids.buffer, r.rowids.byteOffset, r.rowids.byteLength);
    for (let i = 0; i < r.size; i++) {
      if (!valid(r.validity, i)) continue;
      if (k === n) throw new Error('more vectors than slots in use');
      ids[k] = Number(rowids.getBigInt64(i * 8, true));
      part[k] = p;
      bytes.set(r.vectors.subarray(i * bytesPer, (i + 1) * bytesPer), k * words * 4);
      k++;
    }
  }
  if (k !== n) throw new Error('fewer vectors than slots in use');
  return { generation, dims, words, n, ids, part, parts, bits, dist: new Uint16Array(n) };
}

/** The bits as of now: loaded again when their generation changed; null when there are none to search. */
const current = db.transaction(() => {
  const kept = state.get();
  if (!hasBits.get() || !kept) return (held = null);
  if (held && held.generation === kept.generation && held.dims === kept.dims) return held;
  try {
    held = load(kept.dims, kept.generation);
  } catch (err) {
    held = { generation: kept.generation, dims: kept.dims, failed: String(err && err.message || err) };
  }
  return held;
});

/** The ids of the k nearest in hamming distance among these collections (ties by id). */
function nearInMemory(h, query, collectionIds, k) {
  const want = new Uint8Array(h.parts.size);
  let any = false;
  for (const c of collectionIds) {
    const p = h.parts.get(c);
    if (p !== undefined) (want[p] = 1), (any = true);
  }
  if (!any || h.n === 0) return [];
  const q = new Uint32Array(h.words);
  new Uint8Array(q.buffer).set(quantise.get(Buffer.from(query.buffer)).bits);
  const { n, words, bits, part, dist, ids } = h;
  const none = h.dims + 1;
  const histogram = new Uint32Array(none + 1);
  for (let v = 0, o = 0; v < n; v++, o += words) {
    if (want[part[v]] === 0) {
      dist[v] = none;
      continue;
    }
    let d = 0;
    for (let w = 0; w < words; w++) {
      let x = bits[o + w] ^ q[w];
      x -= (x >>> 1) & 0x55555555;
      x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
      d += Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    dist[v] = d;
    histogram[d]++;
  }
  // The distance within which k lie: all nearer ones, then those at it by id until k.
  let cut = 0;
  let nearer = 0;
  while (cut < none && nearer + histogram[cut] < k) nearer += histogram[cut++];
  const found = [];
  const atCut = [];
  for (let v = 0; v < n; v++) {
    if (dist[v] < cut) found.push(ids[v]);
    else if (dist[v] === cut && cut < none) atCut.push(ids[v]);
  }
  atCut.sort((a, b) => a - b);
  for (let i = 0; i < atCut.length && found.length < k; i++) found.push(atCut[i]);
  return found;
}

function nearBySqliteVec(query, collectionIds, k) {
  const marks = collectionIds.map(() => '?').join(', ');
  return db
    .prepare('select rowid as id from chunk_bits where bits match vec_quantize_binary(?) and k = ? and collection in (' + marks + ')')
    .all(Buffer.from(query.buffer), k, ...collectionIds)
    .map((f) => f.id);
}

parentPort.on('message', (m) => {
  const { id } = m;
  try {
    if (m.held) {
      const h = current();
      return parentPort.postMessage({ id, held: h && !h.failed ? { rows: h.n, generation: h.generation } : null });
    }
    const query = new Float32Array(m.vector);
    const h = current();
    if (!h || h.dims !== query.length || m.collectionIds.length === 0) return parentPort.postMessage({ id, hits: [] });
    const found = h.failed ? nearBySqliteVec(query, m.collectionIds, m.candidates) : nearInMemory(h, query, m.collectionIds, m.candidates);
    if (found.length === 0) return parentPort.postMessage({ id, hits: [] });
    const rows = db
      .prepare('select chunk_id as id, vector from chunk_vectors where chunk_id in (' + found.map(() => '?').join(', ') + ')')
      .all(...found);
    const hits = rows
      .map((r) => {
        const v = new Float32Array(r.vector.buffer, r.vector.byteOffset, r.vector.byteLength / 4);
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
        return { id: r.id, similarity: dot };
      })
      .sort((a, b) => b.similarity - a.similarity || a.id - b.id)
      .slice(0, m.limit);
    parentPort.postMessage({ id, hits });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

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
    const w = new Worker(VECTOR_WORKER, { eval: true, workerData: { file } });
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
