import type pg from 'pg';
import { rankedByCosine } from '../queries/vector-index';
import type { ChunksNear } from '../rows';
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
 * after each batch it stores, and before each search for any missing or out of date (a library
 * copied in, one kept from before pgvector was installed, a vector replaced since). Each copy
 * names the version of the row it was made from (the row's `xmin`, which every update of it
 * changes), and a search uses only copies of the rows as they are, so a copy never answers for
 * a vector no longer kept, whatever writes and searches ran at once; a vector deleted takes
 * its copy with it (a foreign key).
 *
 * No approximate index: pgvector picks the candidates by exact distance, and Hearth ranks them
 * again as SQLite's store ranks its candidates, so the answers are the same as without
 * pgvector, and as SQLite's. Hearth enables the extension itself when the server offers it and
 * its role may (CREATE EXTENSION); otherwise it says why, and scans. An extension enabled
 * before, in whichever schema, is used where it is.
 */

/** pgvector in this database: its version, and the schema its type and operators are in. */
export type Pgvector = { version: string; schema: string };

/** pgvector in this database, enabling it first where the server offers it; null without it. */
export async function enablePgvector(pool: pg.Pool, log: (message: string) => void = (m) => console.warn(m)): Promise<Pgvector | null> {
  const installed = async () =>
    (
      await pool.query<Pgvector>(
        `SELECT e.extversion AS version, n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
         WHERE e.extname = 'vector'`,
      )
    ).rows[0] ?? null;
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
        'passages are found by meaning by reading every vector. A superuser can enable it: CREATE EXTENSION vector SCHEMA public;',
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

/** A name as SQL reads it, whatever it holds (the extension's schema is the server's to name). */
const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** A row's version: its xmin (the transaction that wrote it), which every update changes. */
const versionOf = (alias: string) => `${alias}.xmin::text::bigint`;

/** The copies' tables in a library's schema (made once; several processes may open it at once). */
export async function preparePgvector(pool: pg.Pool, schema: string, { schema: vectorSchema }: Pgvector) {
  const s = quoteSchema(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`hearth pgvector ${schema}`]);
    for (const { source, key, copy } of COPIES)
      await client.query(`CREATE TABLE IF NOT EXISTS ${s}.${copy} (
        id bigint PRIMARY KEY REFERENCES ${s}.${source}(${key}) ON DELETE CASCADE,
        made_from bigint NOT NULL,
        embedding ${quoteName(vectorSchema)}.vector NOT NULL)`);
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

/** How many vectors go into a copy in one statement. */
const FILL_BATCH = 500;

/** Finding by meaning with pgvector, in one library's schema (the pool's search_path). */
export function pgvectorQueries(pool: pg.Pool, { schema: vectorSchema }: Pgvector) {
  const vs = quoteName(vectorSchema);
  const vector = `${vs}.vector`;
  const distance = `OPERATOR(${vs}.<=>)`;
  /** Copies the vectors a copy lacks, or holds in an older version. */
  const fill = async ({ source, key, copy }: Copy) => {
    for (;;) {
      const missing = await pool.query<{ id: string; made: string; vector: Buffer }>(
        `SELECT v.${key} AS id, ${versionOf('v')} AS made, v.vector FROM ${source} v
         WHERE NOT EXISTS (SELECT 1 FROM ${copy} e WHERE e.id = v.${key} AND e.made_from = ${versionOf('v')})
         ORDER BY v.${key} LIMIT ${FILL_BATCH}`,
      );
      if (missing.rows.length)
        // A row deleted meanwhile is skipped (the join); one replaced meanwhile is copied as it was and made again next time.
        await pool.query(
          `INSERT INTO ${copy} (id, made_from, embedding)
           SELECT u.id, u.made, u.embedding::${vector} FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(id, made, embedding)
             JOIN ${source} v ON v.${key} = u.id
           ON CONFLICT (id) DO UPDATE SET made_from = EXCLUDED.made_from, embedding = EXCLUDED.embedding`,
          [missing.rows.map((r) => r.id), missing.rows.map((r) => r.made), missing.rows.map((r) => vectorLiteral(floats(r.vector)))],
        );
      if (missing.rows.length < FILL_BATCH) return;
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
    async nearestChunks({ vector: near, collectionIds, limit, candidates }: ChunksNear) {
      await fill(chunks);
      const found = await pool.query<{ id: string; vector: Buffer }>(
        `SELECT e.id, cv.vector
         FROM chunk_embeddings e JOIN chunk_vectors cv ON cv.chunk_id = e.id AND e.made_from = ${versionOf('cv')}
           JOIN doc_chunks d ON d.id = e.id JOIN collection_files cf ON cf.id = d.file_id
         WHERE cf.collection_id = ANY($2) AND ${vs}.vector_dims(e.embedding) = $3
         ORDER BY e.embedding ${distance} $1::${vector}, e.id LIMIT $4`,
        [vectorLiteral(near), collectionIds, near.length, Math.max(candidates, limit)],
      );
      return rankedByCosine(
        found.rows.map((r) => ({ key: Number(r.id), vector: r.vector })),
        near,
        limit,
      ).map((r) => ({ id: r.key, similarity: r.similarity }));
    },
    /** The message vectors (message_vectors.id) nearest a (normalised) vector by pgvector's cosine: the candidates to rank. */
    async nearestMessages(near: Float32Array, k: number): Promise<number[]> {
      await fill(messages);
      const found = await pool.query<{ id: string }>(
        `SELECT e.id FROM message_embeddings e JOIN message_vectors v ON v.id = e.id AND e.made_from = ${versionOf('v')}
         WHERE ${vs}.vector_dims(e.embedding) = $2
         ORDER BY e.embedding ${distance} $1::${vector}, e.id LIMIT $3`,
        [vectorLiteral(near), near.length, k],
      );
      return found.rows.map((r) => Number(r.id));
    },
  };
}
