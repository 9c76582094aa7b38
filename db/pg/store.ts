import { AsyncLocalStorage } from 'node:async_hooks';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { EngineDb, Tables } from '../engine';
import * as pgTables from '../schema.pg';
import { engineNeutralQueries, type Store, type StorePlace } from '../store';
import { pgKnowledgeSearchQueries } from './knowledge-search';
import { libraryOptions, migrateLibrary } from './migrate';
import { pgSearchQueries } from './search';

type PgDb = NodePgDatabase<typeof pgTables>;

/**
 * PostgreSQL's handle for the engine-neutral query families (db/engine.ts): drizzle over a pool,
 * with the tables of db/schema.pg.ts. A transaction takes one of the pool's connections for its
 * whole work; the handle follows the work's async context, so every query of it (a family's own
 * and those of the calls it makes) runs on that connection and no other.
 */
export function pgEngineDb(pool: pg.Pool): EngineDb {
  const root: PgDb = drizzle(pool, { schema: pgTables });
  const transactionOf = new AsyncLocalStorage<PgDb>();
  const current = () => transactionOf.getStore() ?? root;
  const inTransaction = <T>(work: () => Promise<T>, config?: PgTransactionConfig) =>
    transactionOf.getStore() ? work() : root.transaction((tx) => transactionOf.run(tx as unknown as PgDb, work), config);
  const own: Pick<EngineDb, 'engine' | 'tables' | 'atomically' | 'snapshot'> = {
    engine: 'postgres',
    // The same tables by the same names, in PostgreSQL's types (written from db/schema.ts).
    tables: pgTables as unknown as Tables,
    atomically: (work) => inTransaction(work),
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
 * connections see it alone, and the query families over them. What is not carried over yet
 * (the library file's export and import) is missing from it, not faked.
 */
export async function openPgStore(url: string, schema: string, options: { maxConnections?: number } = {}) {
  const pool = new pg.Pool({
    connectionString: url,
    options: libraryOptions(schema),
    max: options.maxConnections ?? 10,
    // Idle connections keep no process alive (a script, a test); a server is kept alive by its own.
    allowExitOnIdle: true,
  });
  await migrateLibrary(pool, schema);
  const db = pgEngineDb(pool);
  const store = {
    place: { engine: 'postgres', url, schema } as StorePlace,
    ...engineNeutralQueries(db, null),
    ...pgSearchQueries(pool),
    ...pgKnowledgeSearchQueries(pool),
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
