import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { causes } from '@/lib/shared/errors';
import type { EngineDb, Tables } from '../engine';
import * as pgTables from '../schema.pg';
import { engineNeutralQueries, type Store, type StorePlace } from '../store';
import { pgKnowledgeSearchQueries } from './knowledge-search';
import { libraryOptions, migrateLibrary } from './migrate';
import { enablePgvector, pgvectorQueries, preparePgvector } from './pgvector';
import { pgSearchQueries } from './search';

type PgDb = NodePgDatabase<typeof pgTables>;

/** How often a transaction that lost a serialization conflict runs again before its error stands. */
const MAX_ATTEMPTS = 5;

/** PostgreSQL's word that a transaction must run again: serialization_failure, deadlock_detected. */
const isSerializationFailure = (err: unknown) => [...causes(err)].some((e) => e.code === '40001' || e.code === '40P01');

/**
 * PostgreSQL's handle for the engine-neutral query families (db/engine.ts): drizzle over a pool,
 * with the tables of db/schema.pg.ts. A transaction takes one of the pool's connections for its
 * whole work; the handle follows the work's async context, so every query of it (a family's own
 * and those of the calls it makes) runs on that connection and no other.
 */
export function pgEngineDb(pool: pg.Pool): EngineDb {
  const root: PgDb = drizzle(pool, { schema: pgTables });
  // The transaction of the work's async context, while it is open: work it started that outlives
  // it (a timer, a promise let go) falls back to the pool, never to a connection given back.
  const transactionOf = new AsyncLocalStorage<{ tx: PgDb; open: boolean }>();
  const open = () => {
    const found = transactionOf.getStore();
    return found?.open ? found.tx : null;
  };
  const current = () => open() ?? root;
  const inTransaction = async <T>(work: () => Promise<T>, config: PgTransactionConfig): Promise<T> => {
    if (open()) return work();
    for (let attempt = 1; ; attempt++) {
      try {
        return await root.transaction(async (tx) => {
          const state = { tx: tx as unknown as PgDb, open: true };
          try {
            return await transactionOf.run(state, work);
          } finally {
            state.open = false;
          }
        }, config);
      } catch (err) {
        // Another transaction touched the same rows: this one is undone whole and runs again.
        if (attempt >= MAX_ATTEMPTS || !isSerializationFailure(err)) throw err;
      }
    }
  };
  const own: Pick<EngineDb, 'engine' | 'tables' | 'atomically' | 'exclusively' | 'snapshot'> = {
    engine: 'postgres',
    // The same tables by the same names, in PostgreSQL's types (written from db/schema.ts).
    tables: pgTables as unknown as Tables,
    // SERIALIZABLE: a check and the write it decides (a login limit, a thread's one running turn,
    // the last owner) are as if alone, as under SQLite's single writer; a conflict runs again.
    atomically: (work) => inTransaction(work, { isolationLevel: 'serializable' }),
    exclusively: (key, work) =>
      inTransaction(
        async () => {
          await current().execute(sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`);
          return work();
        },
        { isolationLevel: 'read committed' },
      ),
    snapshot: (work) => inTransaction(work, { isolationLevel: 'repeatable read', accessMode: 'read only' }),
  };
  return new Proxy(own, {
    get(target, name) {
      if (name in target) return target[name as keyof typeof target];
      const db = current();
      const value = (db as unknown as Record<PropertyKey, unknown>)[name];
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(db) : value;
    },
  }) as unknown as EngineDb;
}

/**
 * A library's store on PostgreSQL: its schema (db/pg/migrate.ts) migrated, a pool whose
 * connections see it alone, and the query families over them.
 */
export async function openPgStore(
  url: string,
  schema: string,
  options: { maxConnections?: number; idleMs?: number; log?: (message: string) => void } = {},
) {
  const pool = new pg.Pool({
    connectionString: url,
    options: libraryOptions(schema),
    max: options.maxConnections ?? 10,
    // pg's own default (10 s) unless asked: the API suites make a Hearth a test and close idle ones sooner.
    idleTimeoutMillis: options.idleMs ?? 10_000,
    // Idle connections keep no process alive (a script, a test); a server is kept alive by its own.
    allowExitOnIdle: true,
  });
  await migrateLibrary(pool, schema);
  const db = pgEngineDb(pool);
  // pgvector where the server has it: passages ranked inside the database (db/pg/pgvector.ts).
  const withPgvector = await enablePgvector(pool, options.log);
  if (withPgvector) await preparePgvector(pool, schema, withPgvector);
  const pgvector = withPgvector ? pgvectorQueries(pool, withPgvector) : null;
  const neutral = engineNeutralQueries(db, null, pgvector?.nearestMessages);
  const store = {
    place: { engine: 'postgres', url, schema } as StorePlace,
    ...neutral,
    /** Keeps a batch of vectors, and pgvector's copy of them where there is one. */
    async storeVectors(batch: Parameters<typeof neutral.storeVectors>[0]) {
      await neutral.storeVectors(batch);
      await pgvector?.fillChunks();
    },
    /** Keeps messages' vectors, and pgvector's copy of them where there is one. */
    async storeMessageVectors(batch: Parameters<typeof neutral.storeMessageVectors>[0]) {
      await neutral.storeMessageVectors(batch);
      await pgvector?.fillMessages();
    },
    /** How passages are ranked by meaning here: by pgvector (and its version), or by reading every vector. */
    vectorSearchMethod: async () => (withPgvector ? `pgvector ${withPgvector.version}` : 'scan'),
    ...pgSearchQueries(pool),
    ...pgKnowledgeSearchQueries(pool, pgvector),
    /** Runs `work` atomically: its writes land together or not at all. */
    transaction<T>(work: () => Promise<T>): Promise<T> {
      return db.atomically(work);
    },
    /** Lets the pool's connections go (the process is ending). */
    close: () => pool.end(),
  };
  // PostgreSQL answers every call of the store's port, with the same types.
  return store satisfies Store;
}
