import { randomInt } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { hasVectorSearch, type Db } from '../client';
import {
  chunkVectors,
  collectionFiles,
  collections,
  docChunks,
  messageVectors,
  messages,
  threadCollections,
  threads,
  vectorIndex,
  type CollectionFileStatus,
} from '../schema';
import type { FileKind } from '@/lib/attachments/file-store';
import type { ChunkHit } from '@/lib/knowledge/retrieve';

/**
 * Knowledge collections, their files and the index over them: full-text (doc_chunks_fts, kept
 * by migration 0019's triggers) and vectors. A chunk's vector is kept whole in chunk_vectors
 * (for exact re-ranking) and binary-quantised in `chunk_bits`, a sqlite-vec table made here
 * once the dimensions are known: a nearest-neighbour scan over bits reads 32 times fewer bytes
 * than over floats (p95 of 25 against 85 ms at 100,000 chunks of 384 dimensions, measured
 * here), and the candidates it finds are ranked again by their exact cosine.
 */

/** A chunk as the chunker cuts it (lib/knowledge/chunk.ts). */
export type ChunkRow = { text: string; page: number | null; lineStart: number; lineEnd: number };

const BITS_TABLE = 'chunk_bits';
/** Messages' quantised vectors, when past conversations are searched by meaning (rowid: message_vectors.id). */
const MESSAGE_BITS_TABLE = 'message_bits';

export function knowledgeQueries(db: Db) {
  const sqlite = db.$client;
  const vectorsAvailable = hasVectorSearch(sqlite);
  const tableExists = (name: string) =>
    sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(name) !== undefined;
  const bitsTableExists = () => tableExists(BITS_TABLE);
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
  /** The quantised chunk vectors changed: the search worker's copy in memory is out of date. */
  const bitsChanged = () => sqlite.prepare('update vector_index set generation = generation + 1 where id = 1').run();
  /** The exact cosine of stored vectors to a normalised query, best first. */
  const ranked = <K>(rows: { key: K; vector: Buffer }[], query: Float32Array, limit: number) =>
    rows
      .map(({ key, vector: bytes }) => {
        const v = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += v[i] * query[i];
        return { key, similarity: dot };
      })
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, limit);

  /** Removes these chunks' quantised vectors (the search table has no foreign keys). */
  const dropBits = (where: string, ...params: unknown[]) => {
    if (!vectorsAvailable || !bitsTableExists()) return;
    sqlite.prepare(`delete from ${BITS_TABLE} where rowid in (select id from doc_chunks where ${where})`).run(...params);
    bitsChanged();
  };

  const fileCounts = (collectionId: string) =>
    db
      .select({
        files: sql<number>`count(*)`,
        ready: sql<number>`coalesce(sum(${collectionFiles.status} = 'ready'), 0)`,
        failed: sql<number>`coalesce(sum(${collectionFiles.status} = 'error'), 0)`,
        chunks: sql<number>`coalesce(sum(${collectionFiles.chunks}), 0)`,
        embedded: sql<number>`coalesce(sum(${collectionFiles.embedded}), 0)`,
      })
      .from(collectionFiles)
      .where(eq(collectionFiles.collectionId, collectionId))
      .get()!;

  return {
    /** Whether this database can keep vectors (sqlite-vec loaded). */
    vectorSearchAvailable: () => vectorsAvailable,

    createCollection({ id, name, everyThread = false, now }: { id: string; name: string; everyThread?: boolean; now: number }) {
      return db.insert(collections).values({ id, name, everyThread, createdAt: now, updatedAt: now }).returning().get();
    },

    /** Every collection, newest first, with its files' progress. */
    listCollections() {
      return db
        .select()
        .from(collections)
        .orderBy(desc(collections.createdAt), asc(collections.id))
        .all()
        .map((c) => ({ ...c, ...fileCounts(c.id) }));
    },

    getCollection({ id }: { id: string }) {
      const c = db.select().from(collections).where(eq(collections.id, id)).get();
      return c && { ...c, ...fileCounts(c.id) };
    },

    updateCollection({ id, name, everyThread, now }: { id: string; name?: string; everyThread?: boolean; now: number }) {
      return (
        db
          .update(collections)
          .set({ ...(name !== undefined ? { name } : {}), ...(everyThread !== undefined ? { everyThread } : {}), updatedAt: now })
          .where(eq(collections.id, id))
          .run().changes > 0
      );
    },

    /** Deletes a collection with its files and index; answers the hashes its files had (for the file store), or null when there was none. */
    deleteCollection({ id }: { id: string }): string[] | null {
      return db.transaction(() => {
        const hashes = db
          .select({ sha256: collectionFiles.sha256 })
          .from(collectionFiles)
          .where(eq(collectionFiles.collectionId, id))
          .all()
          .map((r) => r.sha256);
        dropBits('file_id in (select id from collection_files where collection_id = ?)', id);
        const gone = db.delete(collections).where(eq(collections.id, id)).run().changes > 0;
        return gone ? hashes : null;
      });
    },

    addCollectionFile(row: {
      id: string;
      collectionId: string;
      name: string;
      mime: string;
      size: number;
      sha256: string;
      kind: FileKind;
      now: number;
    }) {
      const { now, ...rest } = row;
      const file = db
        .insert(collectionFiles)
        .values({ ...rest, createdAt: now })
        .returning()
        .get();
      db.update(collections).set({ updatedAt: now }).where(eq(collections.id, row.collectionId)).run();
      return file;
    },

    listCollectionFiles({ collectionId }: { collectionId: string }) {
      return db
        .select()
        .from(collectionFiles)
        .where(eq(collectionFiles.collectionId, collectionId))
        .orderBy(asc(collectionFiles.createdAt), asc(collectionFiles.id))
        .all();
    },

    getCollectionFile({ id }: { id: string }) {
      return db.select().from(collectionFiles).where(eq(collectionFiles.id, id)).get();
    },

    /** Removes a file from its collection with its chunks; answers its hash, or null when there was none. */
    removeCollectionFile({ collectionId, id }: { collectionId: string; id: string }): string | null {
      return db.transaction(() => {
        const file = db
          .select()
          .from(collectionFiles)
          .where(and(eq(collectionFiles.id, id), eq(collectionFiles.collectionId, collectionId)))
          .get();
        if (!file) return null;
        dropBits('file_id = ?', id);
        db.delete(collectionFiles).where(eq(collectionFiles.id, id)).run();
        return file.sha256;
      });
    },

    /** The next file whose text is still to be cut (oldest first). */
    nextFileToCut() {
      return db
        .select()
        .from(collectionFiles)
        .where(eq(collectionFiles.status, 'queued'))
        .orderBy(asc(collectionFiles.createdAt), asc(collectionFiles.id))
        .limit(1)
        .get();
    },

    /**
     * A file's chunks, written at once with its new status: a restart mid-way finds the file
     * still queued with none (a partial set never stays).
     */
    setFileChunks({ fileId, chunks, status }: { fileId: string; chunks: ChunkRow[]; status: CollectionFileStatus }) {
      db.transaction(() => {
        dropBits('file_id = ?', fileId);
        db.delete(docChunks).where(eq(docChunks.fileId, fileId)).run();
        chunks.forEach((c, seq) =>
          db
            .insert(docChunks)
            .values({ fileId, seq, ...c })
            .run(),
        );
        db.update(collectionFiles)
          .set({ status, chunks: chunks.length, embedded: 0, error: null })
          .where(eq(collectionFiles.id, fileId))
          .run();
      });
    },

    setFileStatus({ fileId, status, error = null }: { fileId: string; status: CollectionFileStatus; error?: string | null }) {
      db.update(collectionFiles).set({ status, error }).where(eq(collectionFiles.id, fileId)).run();
    },

    /** Files cut and waiting for vectors become ready (there is no embeddings server: words alone). */
    readyWithoutVectors() {
      db.update(collectionFiles).set({ status: 'ready' }).where(eq(collectionFiles.status, 'indexing')).run();
    },

    /** Chunks with no vector from this model yet, of files not refused, in order. */
    chunksToEmbed({ model, limit }: { model: string; limit: number }) {
      return db
        .select({ id: docChunks.id, fileId: docChunks.fileId, text: docChunks.text })
        .from(docChunks)
        .innerJoin(collectionFiles, eq(collectionFiles.id, docChunks.fileId))
        .where(and(or(isNull(docChunks.embeddedWith), ne(docChunks.embeddedWith, model)), ne(collectionFiles.status, 'error')))
        .orderBy(asc(docChunks.id))
        .limit(limit)
        .all();
    },

    /** The model and dimensions the vectors are from; undefined before the first. */
    vectorIndexState() {
      return db
        .select({ id: vectorIndex.id, model: vectorIndex.model, dims: vectorIndex.dims })
        .from(vectorIndex)
        .where(eq(vectorIndex.id, 1))
        .get();
    },

    /**
     * Forgets every vector (the embedding model changed): the files go back to indexing and
     * the indexer embeds their chunks again; search by words goes on meanwhile.
     */
    resetVectors() {
      db.transaction(() => {
        if (vectorsAvailable && bitsTableExists()) sqlite.exec(`drop table ${BITS_TABLE}`);
        if (vectorsAvailable && tableExists(MESSAGE_BITS_TABLE)) sqlite.exec(`drop table ${MESSAGE_BITS_TABLE}`);
        db.delete(chunkVectors).run();
        db.delete(messageVectors).run();
        db.delete(vectorIndex).run();
        db.update(docChunks)
          .set({ embeddedWith: null })
          .where(sql`${docChunks.embeddedWith} is not null`)
          .run();
        db.update(collectionFiles).set({ embedded: 0 }).run();
        db.update(collectionFiles)
          .set({ status: 'indexing' })
          .where(and(eq(collectionFiles.status, 'ready'), ne(collectionFiles.chunks, 0)))
          .run();
      });
    },

    /**
     * Keeps a batch of vectors (normalised float32) from `model`: whole, and quantised in the
     * search table (made here with their dimensions the first time). A file whose chunks all
     * have one is ready.
     */
    storeVectors({ model, vectors }: { model: string; vectors: { chunkId: number; vector: Float32Array }[] }) {
      if (vectors.length === 0) return;
      const dims = vectors[0].vector.length;
      db.transaction(() => {
        claimIndex(model, dims);
        if (vectorsAvailable && !bitsTableExists())
          sqlite.exec(`create virtual table ${BITS_TABLE} using vec0(collection text partition key, bits bit[${dims}])`);
        const insertBits = vectorsAvailable
          ? sqlite.prepare(`insert into ${BITS_TABLE}(rowid, collection, bits) values (?, ?, vec_quantize_binary(?))`)
          : null;
        const deleteBits = vectorsAvailable ? sqlite.prepare(`delete from ${BITS_TABLE} where rowid = ?`) : null;
        const collectionOf = sqlite.prepare(
          'select f.collection_id as c from doc_chunks d join collection_files f on f.id = d.file_id where d.id = ?',
        );
        const touched = new Set<string>();
        for (const { chunkId, vector } of vectors) {
          const owner = collectionOf.get(chunkId) as { c: string } | undefined;
          if (!owner) continue; // its file was removed while the batch was out
          const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
          db.insert(chunkVectors)
            .values({ chunkId, vector: bytes })
            .onConflictDoUpdate({ target: chunkVectors.chunkId, set: { vector: bytes } })
            .run();
          deleteBits?.run(BigInt(chunkId));
          insertBits?.run(BigInt(chunkId), owner.c, bytes);
          const row = db
            .update(docChunks)
            .set({ embeddedWith: model })
            .where(eq(docChunks.id, chunkId))
            .returning({ fileId: docChunks.fileId })
            .get();
          if (row) touched.add(row.fileId);
        }
        if (insertBits) bitsChanged();
        for (const fileId of touched) {
          sqlite
            .prepare(
              `update collection_files set embedded = (select count(*) from doc_chunks where file_id = ? and embedded_with = ?),
                 status = case when status = 'indexing' and (select count(*) from doc_chunks where file_id = ? and (embedded_with is null or embedded_with != ?)) = 0
                   then 'ready' else status end
               where id = ?`,
            )
            .run(fileId, model, fileId, model, fileId);
        }
      });
    },

    /**
     * Chunks matching an FTS5 expression in these collections, best first (bm25). The best
     * of the whole index are ranked alone first (the join to each chunk's collection, done for
     * every match, cost more than the ranking: 24 against 9 ms at 100,000 chunks) and kept
     * when they are in these collections; only when too few are does it rank with the join.
     */
    chunksMatching({ match, collectionIds, limit }: { match: string; collectionIds: string[]; limit: number }): number[] {
      if (collectionIds.length === 0) return [];
      const marks = collectionIds.map(() => '?').join(', ');
      const wide = limit * 4;
      const best = (
        sqlite
          .prepare('select rowid as id from doc_chunks_fts where doc_chunks_fts match ? order by bm25(doc_chunks_fts) limit ?')
          .all(match, wide) as { id: number }[]
      ).map((r) => r.id);
      if (best.length === 0) return [];
      const inCollections = new Set(
        (
          sqlite
            .prepare(
              // CROSS JOIN keeps the chunks outermost: SQLite would otherwise walk every chunk of the collections.
              `select d.id from doc_chunks d cross join collection_files cf on cf.id = d.file_id
               where d.id in (${best.map(() => '?').join(', ')}) and cf.collection_id in (${marks})`,
            )
            .all(...best, ...collectionIds) as { id: number }[]
        ).map((r) => r.id),
      );
      const kept = best.filter((id) => inCollections.has(id));
      if (kept.length >= limit || best.length < wide) return kept.slice(0, limit);
      const rows = sqlite
        .prepare(
          `select f.rowid as id from doc_chunks_fts f
             join doc_chunks d on d.id = f.rowid
             join collection_files cf on cf.id = d.file_id
           where doc_chunks_fts match ? and cf.collection_id in (${marks})
           order by bm25(doc_chunks_fts) limit ?`,
        )
        .all(match, ...collectionIds, limit) as { id: number }[];
      return rows.map((r) => r.id);
    },

    /** How many chunks hold each of these (folded) terms, and how many chunks there are. */
    termCounts({ terms }: { terms: string[] }): { total: number; counts: Map<string, number> } {
      const total = (sqlite.prepare('select coalesce(sum(chunks), 0) as n from collection_files').get() as { n: number }).n;
      if (terms.length === 0) return { total, counts: new Map() };
      const rows = sqlite
        .prepare(`select term, doc from doc_chunks_vocab where term in (${terms.map(() => '?').join(', ')})`)
        .all(...terms) as { term: string; doc: number }[];
      return { total, counts: new Map(rows.map((r) => [r.term, r.doc])) };
    },

    /**
     * The chunks nearest a (normalised) vector in these collections: `candidates` per collection
     * from the quantised scan, ranked again by exact cosine; the best `limit` with their similarity.
     */
    chunksNear({
      vector,
      collectionIds,
      limit,
      candidates,
    }: {
      vector: Float32Array;
      collectionIds: string[];
      limit: number;
      candidates: number;
    }): { id: number; similarity: number }[] {
      if (collectionIds.length === 0 || !vectorsAvailable || !bitsTableExists()) return [];
      const state = db.select().from(vectorIndex).where(eq(vectorIndex.id, 1)).get();
      if (!state || state.dims !== vector.length) return [];
      const marks = collectionIds.map(() => '?').join(', ');
      const query = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
      const found = sqlite
        .prepare(`select rowid as id from ${BITS_TABLE} where bits match vec_quantize_binary(?) and k = ? and collection in (${marks})`)
        .all(query, candidates, ...collectionIds) as { id: number }[];
      if (found.length === 0) return [];
      const stored = db
        .select({ id: chunkVectors.chunkId, vector: chunkVectors.vector })
        .from(chunkVectors)
        .where(
          inArray(
            chunkVectors.chunkId,
            found.map((f) => f.id),
          ),
        )
        .all();
      return ranked(
        stored.map((r) => ({ key: r.id, vector: r.vector })),
        vector,
        limit,
      ).map((r) => ({ id: r.key, similarity: r.similarity }));
    },

    /** Chunks by id, with their file. */
    chunksByIds({ ids }: { ids: number[] }): ChunkHit[] {
      if (ids.length === 0) return [];
      return db
        .select({
          id: docChunks.id,
          fileId: docChunks.fileId,
          seq: docChunks.seq,
          text: docChunks.text,
          page: docChunks.page,
          lineStart: docChunks.lineStart,
          lineEnd: docChunks.lineEnd,
          fileName: collectionFiles.name,
          collectionId: collectionFiles.collectionId,
          sha256: collectionFiles.sha256,
        })
        .from(docChunks)
        .innerJoin(collectionFiles, eq(collectionFiles.id, docChunks.fileId))
        .where(inArray(docChunks.id, ids))
        .all();
    },

    /** A file's chunk at this place in its order (a passage's neighbour). */
    chunkAt({ fileId, seq }: { fileId: string; seq: number }) {
      return db
        .select()
        .from(docChunks)
        .where(and(eq(docChunks.fileId, fileId), eq(docChunks.seq, seq)))
        .get();
    },

    /** Complete messages with no vector yet, oldest first (past conversations searched by meaning). */
    messagesToEmbed({ limit }: { limit: number }): { id: string; text: string }[] {
      return sqlite
        .prepare(
          `select m.id, m.content as text from messages m left join message_vectors v on v.message_id = m.id
           where v.id is null and m.status = 'complete' and m.role in ('user', 'assistant') and m.content != '' order by m.created_at, m.id limit ?`,
        )
        .all(limit) as { id: string; text: string }[];
    },

    /** Keeps messages' vectors (normalised float32) from `model`, whole and quantised. */
    storeMessageVectors({ model, vectors }: { model: string; vectors: { messageId: string; vector: Float32Array }[] }) {
      if (vectors.length === 0) return;
      const dims = vectors[0].vector.length;
      db.transaction(() => {
        claimIndex(model, dims);
        if (vectorsAvailable && !tableExists(MESSAGE_BITS_TABLE))
          sqlite.exec(`create virtual table ${MESSAGE_BITS_TABLE} using vec0(bits bit[${dims}])`);
        const insertBits = vectorsAvailable
          ? sqlite.prepare(`insert into ${MESSAGE_BITS_TABLE}(rowid, bits) values (?, vec_quantize_binary(?))`)
          : null;
        for (const { messageId, vector } of vectors) {
          const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
          // A message deleted while its batch was out is skipped (its foreign key would refuse the row).
          if (!db.select({ id: messages.id }).from(messages).where(eq(messages.id, messageId)).get()) continue;
          const row = db
            .insert(messageVectors)
            .values({ messageId, vector: bytes })
            .onConflictDoNothing()
            .returning({ id: messageVectors.id })
            .get();
          if (row) insertBits?.run(BigInt(row.id), bytes);
        }
      });
    },

    /** The messages nearest a (normalised) vector, with their thread, best first. */
    messagesNear({ vector, limit }: { vector: Float32Array; limit: number }) {
      if (!vectorsAvailable || !tableExists(MESSAGE_BITS_TABLE)) return [];
      const state = db.select().from(vectorIndex).where(eq(vectorIndex.id, 1)).get();
      if (!state || state.dims !== vector.length) return [];
      const found = sqlite
        .prepare(`select rowid as id from ${MESSAGE_BITS_TABLE} where bits match vec_quantize_binary(?) and k = ?`)
        .all(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), Math.max(limit * 4, 40)) as { id: number }[];
      if (found.length === 0) return [];
      const rows = db
        .select({
          id: messages.id,
          vector: messageVectors.vector,
          threadId: messages.threadId,
          role: messages.role,
          content: messages.content,
          createdAt: messages.createdAt,
          title: threads.title,
          archived: threads.archived,
        })
        .from(messageVectors)
        .innerJoin(messages, eq(messages.id, messageVectors.messageId))
        .innerJoin(threads, eq(threads.id, messages.threadId))
        .where(
          inArray(
            messageVectors.id,
            found.map((f) => f.id),
          ),
        )
        .all();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ranked(
        rows.map((r) => ({ key: r.id, vector: r.vector })),
        vector,
        limit,
      ).map(({ key, similarity }) => {
        const { vector: _v, ...message } = byId.get(key)!;
        return { ...message, similarity };
      });
    },

    /** The collections a thread chose (not those every thread uses). */
    threadCollectionIds({ threadId }: { threadId: string }): string[] {
      return db
        .select({ id: threadCollections.collectionId })
        .from(threadCollections)
        .where(eq(threadCollections.threadId, threadId))
        .all()
        .map((r) => r.id);
    },

    setThreadCollections({ threadId, collectionIds }: { threadId: string; collectionIds: string[] }) {
      db.transaction(() => {
        db.delete(threadCollections).where(eq(threadCollections.threadId, threadId)).run();
        for (const collectionId of new Set(collectionIds)) db.insert(threadCollections).values({ threadId, collectionId }).run();
      });
    },

    /** The collections a thread's turns search: its own and those used by every thread. */
    collectionsOfThread({ threadId }: { threadId: string }) {
      return db
        .select({ id: collections.id, name: collections.name })
        .from(collections)
        .where(
          or(
            eq(collections.everyThread, true),
            inArray(
              collections.id,
              db.select({ id: threadCollections.collectionId }).from(threadCollections).where(eq(threadCollections.threadId, threadId)),
            ),
          ),
        )
        .orderBy(asc(collections.name), asc(collections.id))
        .all();
    },
  };
}
