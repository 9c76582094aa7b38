import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hasVectorSearch, type Db } from '../client';
import { first, type EngineDb } from '../engine';

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

/**
 * SQLite's quantised copy of the vectors (sqlite-vec's bit tables), which its nearest-neighbour
 * scans read; the whole vectors stay in chunk_vectors and message_vectors on every engine.
 * PostgreSQL keeps no such copy (its scans read the whole vectors), so its store has none; nor
 * has a SQLite without sqlite-vec (null).
 */
export type QuantisedVectors = {
  /** Keeps a chunk's bits (replacing any), making the table with the first vectors' dimensions. */
  keepChunk(chunkId: number, collectionId: string, vector: Buffer, dims: number): void;
  /** Says that chunks' bits were kept (once a batch): the search worker's copy in memory is out of date. */
  chunksChanged(): void;
  /** Keeps a message vector's bits (rowid: message_vectors.id). */
  keepMessage(rowId: number, vector: Buffer, dims: number): void;
  /** The ids (message_vectors.id) of the `k` messages whose bits are nearest a vector: the candidates to rank. */
  nearestMessages(vector: Float32Array, k: number): number[];
  /** Forgets the bits of one file's chunks, or of a whole collection's. */
  forgetFile(fileId: string): void;
  forgetCollection(collectionId: string): void;
  /** Forgets every bit (the embedding model changed). */
  forgetAll(): void;
  /** Whether a table has bits yet (none before the first vectors). */
  has(table: typeof BITS_TABLE | typeof MESSAGE_BITS_TABLE): boolean;
  /** Makes both tables again from the whole vectors kept (a library copied in from PostgreSQL). */
  rebuild(): void;
};

/** SQLite's quantised copy on this connection, or null where sqlite-vec is not loaded. */
export function sqliteQuantisedVectors(sqlite: Db['$client']): QuantisedVectors | null {
  if (!hasVectorSearch(sqlite)) return null;
  const tableExists = (name: string) =>
    sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !== undefined;
  /** The chunks' bits changed: the search worker's copy in memory is out of date. */
  const changed = () => sqlite.prepare('update vector_index set generation = generation + 1 where id = 1').run();
  const forgetChunks = (where: string, param: string) => {
    if (!tableExists(BITS_TABLE)) return;
    sqlite.prepare(`delete from ${BITS_TABLE} where rowid in (select id from doc_chunks where ${where})`).run(param);
    changed();
  };
  return {
    keepChunk(chunkId, collectionId, vector, dims) {
      if (!tableExists(BITS_TABLE)) createBitsTable(sqlite, BITS_TABLE, dims);
      sqlite.prepare(`delete from ${BITS_TABLE} where rowid = ?`).run(BigInt(chunkId));
      sqlite
        .prepare(`insert into ${BITS_TABLE}(rowid, collection, bits) values (?, ?, vec_quantize_binary(?))`)
        .run(BigInt(chunkId), collectionId, vector);
      changed();
    },
    chunksChanged: changed,
    keepMessage(rowId, vector, dims) {
      if (!tableExists(MESSAGE_BITS_TABLE)) createBitsTable(sqlite, MESSAGE_BITS_TABLE, dims);
      sqlite.prepare(`insert into ${MESSAGE_BITS_TABLE}(rowid, bits) values (?, vec_quantize_binary(?))`).run(BigInt(rowId), vector);
    },
    nearestMessages(vector, k) {
      if (!tableExists(MESSAGE_BITS_TABLE)) return [];
      const query = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
      const found = sqlite
        .prepare(`select rowid as id from ${MESSAGE_BITS_TABLE} where bits match vec_quantize_binary(?) and k = ?`)
        .all(query, k) as { id: number }[];
      return found.map((r) => r.id);
    },
    forgetFile: (fileId) => forgetChunks('file_id = ?', fileId),
    forgetCollection: (collectionId) => forgetChunks('file_id in (select id from collection_files where collection_id = ?)', collectionId),
    forgetAll() {
      for (const table of [BITS_TABLE, MESSAGE_BITS_TABLE]) if (tableExists(table)) sqlite.exec(`drop table ${table}`);
    },
    has: tableExists,
    rebuild() {
      const state = sqlite.prepare('select dims from vector_index where id = 1').get() as { dims: number } | undefined;
      sqlite.transaction(() => {
        for (const table of [BITS_TABLE, MESSAGE_BITS_TABLE]) if (tableExists(table)) sqlite.exec(`drop table ${table}`);
        if (!state) return;
        createBitsTable(sqlite, BITS_TABLE, state.dims);
        createBitsTable(sqlite, MESSAGE_BITS_TABLE, state.dims);
        sqlite.exec(`insert into ${BITS_TABLE}(rowid, collection, bits)
          select v.chunk_id, f.collection_id, vec_quantize_binary(v.vector)
          from chunk_vectors v join doc_chunks d on d.id = v.chunk_id join collection_files f on f.id = d.file_id`);
        sqlite.exec(`insert into ${MESSAGE_BITS_TABLE}(rowid, bits) select id, vec_quantize_binary(vector) from message_vectors`);
        changed();
      })();
    },
  };
}

/** The vector index's model, checked (or set, for the first vectors) before any are kept: one model and size for chunks and messages. */
export async function claimVectorIndex(db: EngineDb, model: string, dims: number): Promise<void> {
  const { vectorIndex } = db.tables;
  const state = first(await db.select().from(vectorIndex).where(eq(vectorIndex.id, 1)));
  if (state && (state.model !== model || state.dims !== dims))
    throw new Error(`the index holds vectors of ${state.model} (${state.dims} dimensions), not of ${model} (${dims})`);
  if (!state) await db.insert(vectorIndex).values({ id: 1, model, dims, generation: randomInt(2 ** 47) });
}
