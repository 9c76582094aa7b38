import type { ChunkHit, ChunksNear, WordMatch } from '../rows';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client';
import { chunkVectors, collectionFiles, docChunks, vectorIndex } from '../schema';
import { fts5Match } from './fts';
import { BITS_TABLE, rankedByCosine, type QuantisedVectors } from './vector-index';

/**
 * Finding passages in the knowledge collections: by their words (doc_chunks_fts), by meaning
 * (a scan over the quantised vectors of chunk_bits, ranked again by exact cosine), and by id or
 * place for a passage and its neighbours. The collections and their index are kept by knowledge.ts.
 */
export function knowledgeSearchQueries(db: Db, bits: QuantisedVectors | null) {
  const sqlite = db.$client;
  return {
    /**
     * Chunks matching a match (lib/data/search/query.ts) in these collections, best first (bm25). The best
     * of the whole index are ranked alone first (the join to each chunk's collection, done for
     * every match, cost more than the ranking: 24 against 9 ms at 100,000 chunks) and kept
     * when they are in these collections; only when too few are does it rank with the join.
     */
    chunksMatching({ match: words, collectionIds, limit }: { match: WordMatch; collectionIds: string[]; limit: number }): number[] {
      if (collectionIds.length === 0) return [];
      const match = fts5Match(words);
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
    chunksNear({ vector, collectionIds, limit, candidates }: ChunksNear): { id: number; similarity: number }[] {
      if (collectionIds.length === 0 || !bits?.has(BITS_TABLE)) return [];
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
      return rankedByCosine(
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
  };
}
