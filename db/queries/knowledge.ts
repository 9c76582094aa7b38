import { changed, countWhere, first, writtenRow, type EngineDb } from '../engine';
import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { CollectionFileStatus } from '../schema';
import type { FileKind } from '@/lib/contract/statuses';
import { claimVectorIndex, type QuantisedVectors } from './vector-index';

/**
 * Knowledge collections, their files and the index over them: full-text (doc_chunks_fts, kept
 * by migration 0019's triggers) and vectors. A chunk's vector is kept whole in chunk_vectors
 * (for exact re-ranking) and, on SQLite with sqlite-vec, binary-quantised in `chunk_bits`
 * (`bits`, made once the dimensions are known): a nearest-neighbour scan over bits reads 32
 * times fewer bytes than over floats (p95 of 25 against 85 ms at 100,000 chunks of 384
 * dimensions, measured here), and the candidates it finds are ranked again by their exact cosine.
 * PostgreSQL keeps the whole vectors alone (no bits) and scans them.
 */

/** A chunk as the chunker cuts it (lib/data/knowledge/chunk.ts). */
export type ChunkRow = { text: string; page: number | null; lineStart: number; lineEnd: number };

export function knowledgeQueries(db: EngineDb, bits: QuantisedVectors | null) {
  const { chunkVectors, collectionFiles, collections, docChunks, messageVectors, threadCollections, vectorIndex } = db.tables;
  // SQLite searches by meaning through its bits (no sqlite-vec, no search by meaning); PostgreSQL scans the whole vectors.
  const vectorsAvailable = db.engine === 'postgres' || bits !== null;

  const fileCounts = async (collectionId: string) =>
    first(
      await db
        .select({
          files: count(),
          ready: countWhere(sql`${collectionFiles.status} = 'ready'`),
          failed: countWhere(sql`${collectionFiles.status} = 'error'`),
          chunks: sql<number>`coalesce(sum(${collectionFiles.chunks}), 0)`.mapWith(Number),
          embedded: sql<number>`coalesce(sum(${collectionFiles.embedded}), 0)`.mapWith(Number),
        })
        .from(collectionFiles)
        .where(eq(collectionFiles.collectionId, collectionId)),
    )!;

  return {
    /** Whether this database can search by meaning (on SQLite: sqlite-vec loaded). */
    vectorSearchAvailable: async () => vectorsAvailable,
    /**
     * How passages are ranked by meaning here, as /api/health says it: SQLite's scan of quantised
     * vectors (sqlite-vec), PostgreSQL's scan of every vector ('scan', or pgvector: db/pg/store.ts);
     * null: not at all (SQLite without sqlite-vec).
     */
    vectorSearchMethod: async (): Promise<string | null> => (db.engine === 'postgres' ? 'scan' : bits ? 'sqlite-vec' : null),

    async createCollection({ id, name, everyThread = false, now }: { id: string; name: string; everyThread?: boolean; now: number }) {
      return writtenRow(await db.insert(collections).values({ id, name, everyThread, createdAt: now, updatedAt: now }).returning());
    },

    /** Every collection, newest first, with its files' progress. */
    async listCollections() {
      const all = await db.select().from(collections).orderBy(desc(collections.createdAt), asc(collections.id));
      const counted = [];
      for (const c of all) counted.push({ ...c, ...(await fileCounts(c.id)) });
      return counted;
    },

    async getCollection({ id }: { id: string }) {
      const c = first(await db.select().from(collections).where(eq(collections.id, id)));
      return c && { ...c, ...(await fileCounts(c.id)) };
    },

    /** The collections of this library offered to everyone on this Hearth (lib/services/shared-collections.ts). */
    async sharedCollections() {
      return await db
        .select({ id: collections.id, name: collections.name })
        .from(collections)
        .where(eq(collections.shared, true))
        .orderBy(asc(collections.name), asc(collections.id));
    },

    async updateCollection({
      id,
      name,
      everyThread,
      shared,
      now,
    }: {
      id: string;
      name?: string;
      everyThread?: boolean;
      shared?: boolean;
      now: number;
    }) {
      return (
        changed(
          await db
            .update(collections)
            .set({
              ...(name !== undefined ? { name } : {}),
              ...(everyThread !== undefined ? { everyThread } : {}),
              ...(shared !== undefined ? { shared } : {}),
              updatedAt: now,
            })
            .where(eq(collections.id, id)),
        ) > 0
      );
    },

    /** Deletes a collection with its files and index; answers the hashes its files had (for the file store), or null when there was none. */
    async deleteCollection({ id }: { id: string }): Promise<string[] | null> {
      return db.atomically(async () => {
        const hashes = (
          await db.select({ sha256: collectionFiles.sha256 }).from(collectionFiles).where(eq(collectionFiles.collectionId, id))
        ).map((r) => r.sha256);
        bits?.forgetCollection(id);
        const gone = changed(await db.delete(collections).where(eq(collections.id, id))) > 0;
        return gone ? hashes : null;
      });
    },

    async addCollectionFile(row: {
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
      const file = writtenRow(
        await db
          .insert(collectionFiles)
          .values({ ...rest, createdAt: now })
          .returning(),
      );
      await db.update(collections).set({ updatedAt: now }).where(eq(collections.id, row.collectionId));
      return file;
    },

    async listCollectionFiles({ collectionId }: { collectionId: string }) {
      return await db
        .select()
        .from(collectionFiles)
        .where(eq(collectionFiles.collectionId, collectionId))
        .orderBy(asc(collectionFiles.createdAt), asc(collectionFiles.id));
    },

    async getCollectionFile({ id }: { id: string }) {
      return first(await db.select().from(collectionFiles).where(eq(collectionFiles.id, id)));
    },

    /** Removes a file from its collection with its chunks; answers its hash, or null when there was none. */
    async removeCollectionFile({ collectionId, id }: { collectionId: string; id: string }): Promise<string | null> {
      return db.atomically(async () => {
        const file = first(
          await db
            .select()
            .from(collectionFiles)
            .where(and(eq(collectionFiles.id, id), eq(collectionFiles.collectionId, collectionId))),
        );
        if (!file) return null;
        bits?.forgetFile(id);
        await db.delete(collectionFiles).where(eq(collectionFiles.id, id));
        return file.sha256;
      });
    },

    /** The next file whose text is still to be cut (oldest first). */
    async nextFileToCut() {
      return first(
        await db
          .select()
          .from(collectionFiles)
          .where(eq(collectionFiles.status, 'queued'))
          .orderBy(asc(collectionFiles.createdAt), asc(collectionFiles.id))
          .limit(1),
      );
    },

    /**
     * A file's chunks, written at once with its new status: a restart mid-way finds the file
     * still queued with none (a partial set never stays).
     */
    async setFileChunks({ fileId, chunks, status }: { fileId: string; chunks: ChunkRow[]; status: CollectionFileStatus }) {
      await db.atomically(async () => {
        bits?.forgetFile(fileId);
        await db.delete(docChunks).where(eq(docChunks.fileId, fileId));
        for (const [seq, c] of chunks.entries()) await db.insert(docChunks).values({ fileId, seq, ...c });
        await db
          .update(collectionFiles)
          .set({ status, chunks: chunks.length, embedded: 0, error: null })
          .where(eq(collectionFiles.id, fileId));
      });
    },

    async setFileStatus({ fileId, status, error = null }: { fileId: string; status: CollectionFileStatus; error?: string | null }) {
      await db.update(collectionFiles).set({ status, error }).where(eq(collectionFiles.id, fileId));
    },

    /** Files cut and waiting for vectors become ready (there is no embeddings server: words alone). */
    async readyWithoutVectors() {
      await db.update(collectionFiles).set({ status: 'ready' }).where(eq(collectionFiles.status, 'indexing'));
    },

    /** Chunks with no vector from this model yet, of files not refused, in order. */
    async chunksToEmbed({ model, limit }: { model: string; limit: number }) {
      return await db
        .select({ id: docChunks.id, fileId: docChunks.fileId, text: docChunks.text })
        .from(docChunks)
        .innerJoin(collectionFiles, eq(collectionFiles.id, docChunks.fileId))
        .where(and(or(isNull(docChunks.embeddedWith), ne(docChunks.embeddedWith, model)), ne(collectionFiles.status, 'error')))
        .orderBy(asc(docChunks.id))
        .limit(limit);
    },

    /** The model and dimensions the vectors are from; undefined before the first. */
    async vectorIndexState() {
      return first(
        await db
          .select({ id: vectorIndex.id, model: vectorIndex.model, dims: vectorIndex.dims })
          .from(vectorIndex)
          .where(eq(vectorIndex.id, 1)),
      );
    },

    /**
     * Forgets every vector (the embedding model changed): the files go back to indexing and
     * the indexer embeds their chunks again; search by words goes on meanwhile.
     */
    async resetVectors() {
      await db.atomically(async () => {
        bits?.forgetAll();
        await db.delete(chunkVectors);
        await db.delete(messageVectors);
        await db.delete(vectorIndex);
        await db
          .update(docChunks)
          .set({ embeddedWith: null })
          .where(sql`${docChunks.embeddedWith} is not null`);
        await db.update(collectionFiles).set({ embedded: 0 });
        await db
          .update(collectionFiles)
          .set({ status: 'indexing' })
          .where(and(eq(collectionFiles.status, 'ready'), ne(collectionFiles.chunks, 0)));
      });
    },

    /**
     * Keeps a batch of vectors (normalised float32) from `model`: whole, and quantised in the
     * search table (made here with their dimensions the first time). A file whose chunks all
     * have one is ready.
     */
    async storeVectors({ model, vectors }: { model: string; vectors: { chunkId: number; vector: Float32Array }[] }) {
      if (vectors.length === 0) return;
      const dims = vectors[0].vector.length;
      await db.atomically(async () => {
        await claimVectorIndex(db, model, dims);
        const touched = new Set<string>();
        for (const { chunkId, vector } of vectors) {
          const owner = first(
            await db
              .select({ c: collectionFiles.collectionId })
              .from(docChunks)
              .innerJoin(collectionFiles, eq(collectionFiles.id, docChunks.fileId))
              .where(eq(docChunks.id, chunkId)),
          );
          if (!owner) continue; // its file was removed while the batch was out
          const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
          await db
            .insert(chunkVectors)
            .values({ chunkId, vector: bytes })
            .onConflictDoUpdate({ target: chunkVectors.chunkId, set: { vector: bytes } });
          bits?.keepChunk(chunkId, owner.c, bytes, dims);
          const row = first(
            await db
              .update(docChunks)
              .set({ embeddedWith: model })
              .where(eq(docChunks.id, chunkId))
              .returning({ fileId: docChunks.fileId }),
          );
          if (row) touched.add(row.fileId);
        }
        bits?.chunksChanged();
        for (const fileId of touched) {
          const ofFile = (condition: SQL) => db.$count(docChunks, and(eq(docChunks.fileId, fileId), condition));
          const embedded = await ofFile(eq(docChunks.embeddedWith, model));
          const waiting = await ofFile(or(isNull(docChunks.embeddedWith), ne(docChunks.embeddedWith, model))!);
          await db
            .update(collectionFiles)
            .set({
              embedded,
              ...(waiting === 0
                ? { status: sql`case when ${collectionFiles.status} = 'indexing' then 'ready' else ${collectionFiles.status} end` }
                : {}),
            })
            .where(eq(collectionFiles.id, fileId));
        }
      });
    },

    /** The collections a thread chose (not those every thread uses). */
    async threadCollectionIds({ threadId }: { threadId: string }): Promise<string[]> {
      return (
        await db.select({ id: threadCollections.collectionId }).from(threadCollections).where(eq(threadCollections.threadId, threadId))
      ).map((r) => r.id);
    },

    async setThreadCollections({ threadId, collectionIds }: { threadId: string; collectionIds: string[] }) {
      await db.atomically(async () => {
        await db.delete(threadCollections).where(eq(threadCollections.threadId, threadId));
        for (const collectionId of new Set(collectionIds)) await db.insert(threadCollections).values({ threadId, collectionId });
      });
    },

    /** The collections a thread's turns search: its own and those used by every thread. */
    async collectionsOfThread({ threadId }: { threadId: string }) {
      return await db
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
        .orderBy(asc(collections.name), asc(collections.id));
    },
  };
}
