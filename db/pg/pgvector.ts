import type pg from 'pg';
import { rankedByCosine } from '../queries/vector-index';
import { quoteSchema } from './migrate';

/**
 * pgvector, where the PostgreSQL server has it: passages and past messages are then found by
 * meaning inside the database (`<=>`, cosine distance), so a search reads back its best few
 * candidates, not every vector kept. Without it every vector is read and ranked by Hearth
 * (db/pg/knowledge-search.ts, db/queries/message-vectors.ts): the same answers, slower for
 * large libraries. Either way /api/health says which.
 *
 * The vectors themselves stay where both engines keep them (chunk_vectors and message_vectors,
 * float32 bytes), so a library moves between engines and servers unchanged. pgvector's copies
 * are tables beside them (chunk_embeddings, message_embeddings) that Hearth fills from them:
 * after each batch it stores, and before each search for any left (a library copied in, or
 * kept from before pgvector was installed). A vector replaced is dropped from its copy by a
 * trigger, and a vector deleted takes its copy with it (a foreign key), so a copy never
 * answers with a vector no longer kept.
 *
 * No approximate index: pgvector picks the candidates by exact distance, and Hearth ranks them
 * again as SQLite's store ranks its candidates, so the answers are the same as without
 * pgvector, and as SQLite's. Hearth enables the extension itself when the server offers it and
 * its role may (CREATE EXTENSION); otherwise it says why, and scans.
 */

/** pgvector's version in this database, enabling it first where the server offers it; null without it. */
export async function enablePgvector(pool: pg.Pool, log: (message: string) => void = (m) => console.warn(m)): Promise<string | null> {
  const installed = async () =>
    (await pool.query<{ v: string }>(`SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`)).rows[0]?.v ?? null;
  const found = await installed();
  if (found) return found;
  const offered = await pool.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`);
  if (!offered.rowCount) return null;
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS vector SCHEMA public');
  } catch (err) {
    // Another process enabling it at the same moment wins the race; a role that may not is told what to ask for.
    const now = await installed().catch(() => null);
    if (now) return now;
    log(
      `pgvector is installed on the PostgreSQL server but could not be enabled (${(err as Error).message}); ` +
        'passages are ranked by reading every vector. A superuser can enable it: CREATE EXTENSION vector SCHEMA public;',
    );
    return null;
  }
  return installed();
}

/** The vectors Hearth keeps (float32 bytes) and pgvector's copy of each: passages', and past messages'. */
const COPIES = [
  { source: 'chunk_vectors', key: 'chunk_id', copy: 'chunk_embeddings' },
  { source: 'message_vectors', key: 'id', copy: 'message_embeddings' },
] as const;
type Copy = (typeof COPIES)[number];

/** The copies' tables and triggers in a library's schema (made once; several processes may open it at once). */
export async function preparePgvector(pool: pg.Pool, schema: string) {
  const s = quoteSchema(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`hearth pgvector ${schema}`]);
    for (const { source, key, copy } of COPIES) {
      await client.query(`CREATE TABLE IF NOT EXISTS ${s}.${copy} (
        id bigint PRIMARY KEY REFERENCES ${s}.${source}(${key}) ON DELETE CASCADE,
        embedding public.vector NOT NULL)`);
      await client.query(`CREATE OR REPLACE FUNCTION ${s}.${copy}_replaced() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN DELETE FROM ${s}.${copy} WHERE id = NEW.${key}; RETURN NEW; END $$`);
      await client.query(`CREATE OR REPLACE TRIGGER ${copy}_replaced AFTER UPDATE OF vector ON ${s}.${source}
        FOR EACH ROW EXECUTE FUNCTION ${s}.${copy}_replaced()`);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** A float32 vector as pgvector reads it: its text form, each number exactly the float32 kept. */
export const vectorLiteral = (v: Float32Array) => `[${Array.from(v).join(',')}]`;

/** Float32 bytes as kept, read back. */
const floats = (bytes: Buffer) => new Float32Array(Uint8Array.from(bytes).buffer);

/** How many vectors go into a copy in one transaction. */
const FILL_BATCH = 500;

/** Ranking by meaning with pgvector, in one library's schema (the pool's search_path). */
export function pgvectorQueries(pool: pg.Pool) {
  /**
   * Copies the vectors a copy lacks. Each batch holds the rows it copies (FOR SHARE), so a
   * vector replaced meanwhile waits, and its trigger then drops the copy just made; rows a
   * writer holds now are left for the next fill (SKIP LOCKED: a fill never waits on a writer,
   * nor a writer's transaction on a fill it started).
   */
  const fill = async ({ source, key, copy }: Copy) => {
    for (;;) {
      const client = await pool.connect();
      let copied = 0;
      try {
        await client.query('BEGIN');
        const missing = await client.query<{ id: string; vector: Buffer }>(
          `SELECT v.${key} AS id, v.vector FROM ${source} v
           WHERE NOT EXISTS (SELECT 1 FROM ${copy} e WHERE e.id = v.${key})
           ORDER BY v.${key} LIMIT ${FILL_BATCH} FOR SHARE OF v SKIP LOCKED`,
        );
        copied = missing.rows.length;
        if (copied)
          await client.query(
            `INSERT INTO ${copy} (id, embedding)
             SELECT id, embedding::public.vector FROM unnest($1::bigint[], $2::text[]) AS u(id, embedding)
             ON CONFLICT (id) DO UPDATE SET embedding = EXCLUDED.embedding`,
            [missing.rows.map((r) => r.id), missing.rows.map((r) => vectorLiteral(floats(r.vector)))],
          );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
      if (copied < FILL_BATCH) return;
    }
  };
  const [chunks, messages] = COPIES;
  return {
    /** Copies the passages' vectors stored since the last fill. */
    fillChunks: () => fill(chunks),
    /** Copies the messages' vectors stored since the last fill. */
    fillMessages: () => fill(messages),
    /**
     * The chunks nearest a (normalised) vector in these collections: the `candidates` nearest by
     * pgvector's cosine (in float32), ranked again here by exact cosine (in float64, as SQLite's
     * store ranks its candidates), so near-ties fall the same way on both engines; the best `limit`.
     */
    async nearestChunks({
      vector,
      collectionIds,
      limit,
      candidates,
    }: {
      vector: Float32Array;
      collectionIds: string[];
      limit: number;
      candidates: number;
    }) {
      await fill(chunks);
      const found = await pool.query<{ id: string; vector: Buffer }>(
        `SELECT e.id, cv.vector
         FROM chunk_embeddings e JOIN chunk_vectors cv ON cv.chunk_id = e.id
           JOIN doc_chunks d ON d.id = e.id JOIN collection_files cf ON cf.id = d.file_id
         WHERE cf.collection_id = ANY($2) AND public.vector_dims(e.embedding) = $3
         ORDER BY e.embedding <=> $1::public.vector, e.id LIMIT $4`,
        [vectorLiteral(vector), collectionIds, vector.length, Math.max(candidates, limit)],
      );
      return rankedByCosine(
        found.rows.map((r) => ({ key: Number(r.id), vector: r.vector })),
        vector,
        limit,
      ).map((r) => ({ id: r.key, similarity: r.similarity }));
    },
    /** The message vectors (message_vectors.id) nearest a (normalised) vector by pgvector's cosine: the candidates to rank. */
    async nearestMessages(vector: Float32Array, k: number): Promise<number[]> {
      await fill(messages);
      const found = await pool.query<{ id: string }>(
        `SELECT id FROM message_embeddings WHERE public.vector_dims(embedding) = $2
         ORDER BY embedding <=> $1::public.vector, id LIMIT $3`,
        [vectorLiteral(vector), vector.length, k],
      );
      return found.rows.map((r) => Number(r.id));
    },
  };
}
