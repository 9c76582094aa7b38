import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hasVectorSearch, type Db } from '../client';
import { vectorIndex } from '../schema';

/**
 * What the two vector indexes share (knowledge chunks in knowledge.ts, past messages in
 * message-vectors.ts): one embedding model and dimensions for both, recorded in vector_index,
 * and exact re-ranking by cosine.
 */

/** Knowledge chunks' quantised vectors (rowid: doc_chunks.id), a sqlite-vec table made with the first vectors. */
export const BITS_TABLE = 'chunk_bits';
/** Messages' quantised vectors, when past conversations are searched by meaning (rowid: message_vectors.id). */
export const MESSAGE_BITS_TABLE = 'message_bits';

/** The exact cosine of stored vectors to a normalised query, best first. */
export function rankedByCosine<K>(rows: { key: K; vector: Buffer }[], query: Float32Array, limit: number) {
  return rows
    .map(({ key, vector: bytes }) => {
      const v = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
      return { key, similarity: dot };
    })
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit);
}

/** The sqlite-vec table of one of the two, for vectors of these dimensions (made with the first vectors kept). */
export function createBitsTable(sqlite: Db['$client'], table: typeof BITS_TABLE | typeof MESSAGE_BITS_TABLE, dims: number): void {
  if (!Number.isInteger(dims) || dims <= 0) throw new Error(`not a vector size: ${dims}`);
  const columns = table === BITS_TABLE ? `collection text partition key, bits bit[${dims}]` : `bits bit[${dims}]`;
  sqlite.exec(`create virtual table ${table} using vec0(${columns})`);
}

export function vectorIndexHelpers(db: Db) {
  const sqlite = db.$client;
  const tableExists = (name: string) =>
    sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !== undefined;

  /**
   * Makes both quantised tables again from the whole vectors kept (a library copied in from
   * PostgreSQL by db:copy, where they are not kept): the same bits as when each was stored.
   */
  const rebuildQuantised = () => {
    if (!hasVectorSearch(sqlite)) return;
    const state = db.select().from(vectorIndex).where(eq(vectorIndex.id, 1)).get();
    db.transaction(() => {
      for (const table of [BITS_TABLE, MESSAGE_BITS_TABLE]) if (tableExists(table)) sqlite.exec(`drop table ${table}`);
      if (!state) return;
      createBitsTable(sqlite, BITS_TABLE, state.dims);
      createBitsTable(sqlite, MESSAGE_BITS_TABLE, state.dims);
      sqlite.exec(`insert into ${BITS_TABLE}(rowid, collection, bits)
        select v.chunk_id, f.collection_id, vec_quantize_binary(v.vector)
        from chunk_vectors v join doc_chunks d on d.id = v.chunk_id join collection_files f on f.id = d.file_id`);
      sqlite.exec(`insert into ${MESSAGE_BITS_TABLE}(rowid, bits) select id, vec_quantize_binary(vector) from message_vectors`);
      sqlite.prepare('update vector_index set generation = generation + 1 where id = 1').run();
    });
  };
  /** The vector index's model, checked (or set, for the first vectors) before any are kept. */
  const claimIndex = (model: string, dims: number) => {
    const state = db.select().from(vectorIndex).where(eq(vectorIndex.id, 1)).get();
    if (state && (state.model !== model || state.dims !== dims))
      throw new Error(`the index holds vectors of ${state.model} (${state.dims} dimensions), not of ${model} (${dims})`);
    if (!state)
      db.insert(vectorIndex)
        .values({ id: 1, model, dims, generation: randomInt(2 ** 47) })
        .run();
  };
  return { tableExists, claimIndex, rebuildQuantised };
}
