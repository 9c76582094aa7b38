// @ts-check
// The nearest-vector search of db/vector-worker.ts, in a worker thread on a read-only connection
// of its own (that file says how and why). Plain JavaScript so Node runs it as it is, under
// `next start` and in tests alike; tsc checks it with the types in JSDoc.
import { parentPort as port, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

/**
 * @typedef {{ generation: number; dims: number; words: number; n: number; ids: Float64Array; part: Uint32Array;
 *   parts: Map<string, number>; bits: Uint32Array; dist: Uint16Array }} Loaded
 * @typedef {Loaded | { generation: number; dims: number; failed: string }} Held
 * @typedef {{ id: number; held: true } | { id: number; held?: false; vector: ArrayBuffer; collectionIds: string[];
 *   candidates: number; limit: number }} Request
 * @typedef {{ size: number; validity: Buffer }} ChunkSlots
 * @typedef {ChunkSlots & { part: string; rowids: Buffer; vectors: Buffer }} Chunk
 */

if (!port) throw new Error('db/vector-scan.mjs runs as a worker thread');
const parentPort = port;
/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

const db = new Database(/** @type {{ file: string }} */ (workerData).file, { readonly: true, fileMustExist: true });
sqliteVec.load(db);
db.pragma('busy_timeout = 5000');
/** @type {import('better-sqlite3').Statement<[], { dims: number; generation: number }>} */
const state = db.prepare('select dims, generation from vector_index where id = 1');
const hasBits = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'chunk_bits'");
/** @type {import('better-sqlite3').Statement<[Buffer], { bits: Uint8Array }>} */
const quantise = db.prepare('select vec_quantize_binary(?) as bits');

/** The bits in memory: { generation, dims, words, n, ids, part, parts, bits, dist } or { generation, failed }. */
/** @type {Held | null} */
let held = null;

/** @param {number} dims @param {number} generation @returns {Loaded} */
function load(dims, generation) {
  const bytesPer = dims / 8;
  const words = Math.ceil(dims / 32);
  /** @param {Buffer} validity @param {number} i */
  const valid = (validity, i) => (validity[i >> 3] & (1 << (i & 7))) !== 0;
  // First the slots in use (the validity bitmaps alone), then the vectors a chunk at a time.
  let n = 0;
  for (const r of /** @type {Iterable<ChunkSlots>} */ (db.prepare('select size, validity from chunk_bits_chunks').iterate())) {
    if (r.validity.length * 8 < r.size) throw new Error('unexpected chunk layout');
    for (let i = 0; i < r.size; i++) if (valid(r.validity, i)) n++;
  }
  // The same count as sqlite-vec's own rowid table, or this is not the layout read here.
  const listed = /** @type {{ n: number }} */ (db.prepare('select count(*) as n from chunk_bits_rowids').get()).n;
  if (listed !== n) throw new Error('the vector chunks hold ' + n + ' vectors, the rowid table ' + listed);
  const ids = new Float64Array(n);
  const part = new Uint32Array(n);
  const bits = new Uint32Array(n * words);
  const bytes = new Uint8Array(bits.buffer);
  /** @type {Map<string, number>} */
  const parts = new Map();
  let k = 0;
  const chunks = db.prepare(
    'select c.size as size, c.partition00 as part, c.validity as validity, c.rowids as rowids, v.vectors as vectors ' +
      'from chunk_bits_chunks c join chunk_bits_vector_chunks00 v on v.rowid = c.chunk_id',
  );
  for (const r of /** @type {Iterable<Chunk>} */ (chunks.iterate())) {
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
const current = db.transaction(
  /** @returns {Held | null} */ () => {
    const kept = state.get();
    if (!hasBits.get() || !kept) return (held = null);
    if (held && held.generation === kept.generation && held.dims === kept.dims) return held;
    try {
      held = load(kept.dims, kept.generation);
    } catch (err) {
      held = { generation: kept.generation, dims: kept.dims, failed: messageOf(err) };
    }
    return held;
  },
);

/** The ids of the k nearest in hamming distance among these collections (ties by id). */
/** @param {Loaded} h @param {Float32Array} query @param {string[]} collectionIds @param {number} k @returns {number[]} */
function nearInMemory(h, query, collectionIds, k) {
  const want = new Uint8Array(h.parts.size);
  let any = false;
  for (const c of collectionIds) {
    const p = h.parts.get(c);
    if (p === undefined) continue;
    want[p] = 1;
    any = true;
  }
  if (!any || h.n === 0) return [];
  const q = new Uint32Array(h.words);
  new Uint8Array(q.buffer).set(/** @type {{ bits: Uint8Array }} */ (quantise.get(Buffer.from(query.buffer))).bits);
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
  /** @type {number[]} */
  const found = [];
  /** @type {number[]} */
  const atCut = [];
  for (let v = 0; v < n; v++) {
    if (dist[v] < cut) found.push(ids[v]);
    else if (dist[v] === cut && cut < none) atCut.push(ids[v]);
  }
  atCut.sort((a, b) => a - b);
  for (let i = 0; i < atCut.length && found.length < k; i++) found.push(atCut[i]);
  return found;
}

/** @param {Float32Array} query @param {string[]} collectionIds @param {number} k @returns {number[]} */
function nearBySqliteVec(query, collectionIds, k) {
  const marks = collectionIds.map(() => '?').join(', ');
  return db
    .prepare('select rowid as id from chunk_bits where bits match vec_quantize_binary(?) and k = ? and collection in (' + marks + ')')
    .all(Buffer.from(query.buffer), k, ...collectionIds)
    .map((f) => /** @type {{ id: number }} */ (f).id);
}

parentPort.on('message', (/** @type {Request} */ m) => {
  const { id } = m;
  try {
    if (m.held) {
      const h = current();
      return parentPort.postMessage({ id, held: h && !('failed' in h) ? { rows: h.n, generation: h.generation } : null });
    }
    const query = new Float32Array(m.vector);
    const h = current();
    if (!h || h.dims !== query.length || m.collectionIds.length === 0) return parentPort.postMessage({ id, hits: [] });
    const found =
      'failed' in h ? nearBySqliteVec(query, m.collectionIds, m.candidates) : nearInMemory(h, query, m.collectionIds, m.candidates);
    if (found.length === 0) return parentPort.postMessage({ id, hits: [] });
    const rows = /** @type {{ id: number; vector: Buffer }[]} */ (
      db
        .prepare('select chunk_id as id, vector from chunk_vectors where chunk_id in (' + found.map(() => '?').join(', ') + ')')
        .all(...found)
    );
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
    parentPort.postMessage({ id, error: messageOf(err) });
  }
});
