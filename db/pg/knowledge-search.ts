import { rankedByCosine } from '../queries/vector-index';
import type { ChunkHit, ChunksNear, WordMatch } from '../rows';
import type { pgvectorQueries } from './pgvector';
import type { Queryable } from './search';
import { tsQuery } from './search';

/**
 * Finding passages of knowledge collections on PostgreSQL: the questions db/queries/knowledge-search.ts
 * asks of SQLite, with the same answers. By their words: the passages' tsvector column (migration
 * 0001_search, GIN-indexed), ranked by ts_rank_cd where SQLite has bm25. By meaning: the whole
 * vectors kept in chunk_vectors, ranked by exact cosine: inside the database by pgvector where
 * the server has it (db/pg/pgvector.ts), else here, every vector of the collections read.
 */

type ChunkRow = Omit<ChunkHit, 'id' | 'seq' | 'page' | 'lineStart' | 'lineEnd'> & {
  id: string;
  seq: string;
  page: string | null;
  lineStart: string;
  lineEnd: string;
};

const CHUNK_COLUMNS = `d.id, d.file_id AS "fileId", d.seq, d.text, d.page, d.line_start AS "lineStart", d.line_end AS "lineEnd"`;
/** A passage as pg gives it (bigint columns as text) in the numbers SQLite's store gives. */
const chunkOf = <R extends Pick<ChunkRow, 'id' | 'seq' | 'page' | 'lineStart' | 'lineEnd'>>(r: R) => ({
  ...r,
  id: Number(r.id),
  seq: Number(r.seq),
  page: r.page === null ? null : Number(r.page),
  lineStart: Number(r.lineStart),
  lineEnd: Number(r.lineEnd),
});

export function pgKnowledgeSearchQueries(db: Queryable, pgvector: ReturnType<typeof pgvectorQueries> | null = null) {
  return {
    /** Chunks matching a match in these collections, best first. */
    async chunksMatching({ match, collectionIds, limit }: { match: WordMatch; collectionIds: string[]; limit: number }): Promise<number[]> {
      if (collectionIds.length === 0) return [];
      const query = tsQuery(match, 3);
      const found = await db.query<{ id: string }>(
        `SELECT d.id FROM doc_chunks d JOIN collection_files cf ON cf.id = d.file_id
         WHERE d.words @@ ${query.sql} AND cf.collection_id = ANY($1)
         ORDER BY ts_rank_cd(d.words, ${query.sql}, 1) DESC, d.id LIMIT $2`,
        [collectionIds, limit, ...query.params],
      );
      return found.rows.map((r) => Number(r.id));
    },

    /** How many chunks hold each of these (folded) terms, and how many chunks there are. */
    async termCounts({ terms }: { terms: string[] }): Promise<{ total: number; counts: Map<string, number> }> {
      const total = await db.query<{ n: string }>('SELECT coalesce(sum(chunks), 0) AS n FROM collection_files');
      const counts = new Map<string, number>();
      for (const term of terms) {
        const found = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM doc_chunks WHERE words @@ phraseto_tsquery('hearth_words', $1)`,
          [term],
        );
        if (Number(found.rows[0].n) > 0) counts.set(term, Number(found.rows[0].n));
      }
      return { total: Number(total.rows[0].n), counts };
    },

    /** The chunks nearest a (normalised) vector in these collections, by exact cosine; the best `limit`. */
    async chunksNear({ vector, collectionIds, limit, candidates }: ChunksNear): Promise<{ id: number; similarity: number }[]> {
      if (collectionIds.length === 0) return [];
      const state = await db.query<{ dims: string }>('SELECT dims FROM vector_index WHERE id = 1');
      if (state.rows.length === 0 || Number(state.rows[0].dims) !== vector.length) return [];
      if (pgvector) return pgvector.nearestChunks({ vector, collectionIds, limit, candidates });
      const stored = await db.query<{ id: string; vector: Buffer }>(
        `SELECT v.chunk_id AS id, v.vector FROM chunk_vectors v
           JOIN doc_chunks d ON d.id = v.chunk_id JOIN collection_files cf ON cf.id = d.file_id
         WHERE cf.collection_id = ANY($1)`,
        [collectionIds],
      );
      return rankedByCosine(
        stored.rows.map((r) => ({ key: Number(r.id), vector: r.vector })),
        vector,
        limit,
      ).map((r) => ({ id: r.key, similarity: r.similarity }));
    },

    /** Chunks by id, with their file. */
    async chunksByIds({ ids }: { ids: number[] }): Promise<ChunkHit[]> {
      if (ids.length === 0) return [];
      const found = await db.query<ChunkRow>(
        `SELECT ${CHUNK_COLUMNS}, cf.name AS "fileName", cf.collection_id AS "collectionId", cf.sha256
         FROM doc_chunks d JOIN collection_files cf ON cf.id = d.file_id WHERE d.id = ANY($1)`,
        [ids],
      );
      return found.rows.map(chunkOf);
    },

    /** A file's chunk at this place in its order (a passage's neighbour). */
    async chunkAt({ fileId, seq }: { fileId: string; seq: number }) {
      const found = await db.query<Omit<ChunkRow, 'fileName' | 'collectionId' | 'sha256'> & { embeddedWith: string | null }>(
        `SELECT ${CHUNK_COLUMNS}, d.embedded_with AS "embeddedWith" FROM doc_chunks d WHERE d.file_id = $1 AND d.seq = $2`,
        [fileId, seq],
      );
      return found.rows[0] && chunkOf(found.rows[0]);
    },
  };
}
