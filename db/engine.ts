import { getTableColumns, sql, type SQL, type SQLWrapper, type Table } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import type * as schema from './schema';

/**
 * What the query families (db/queries/*.ts) are written against, once for both engines. drizzle's
 * query builders ask the same questions of SQLite and of PostgreSQL; what differs is told here:
 * the tables (db/schema.ts or db/schema.pg.ts, written from it, by the same names), how a
 * transaction is opened (ConnectionGate on SQLite's one connection, a pool's connection on
 * PostgreSQL), and the few SQL functions the two name differently.
 *
 * The families are type-checked against SQLite's drizzle types, the richer of the two; PostgreSQL's
 * handle answers the same calls at run time. So a family awaits its queries (never SQLite's
 * synchronous .all(), .get() or .run(), which PostgreSQL's builders lack: the lint forbids them
 * here) and reads results through first() and changed(). The store's tests run on both engines.
 */

export type Engine = 'sqlite' | 'postgres';

/** Hearth's tables, by the names db/schema.ts gives them. */
export type Tables = typeof schema;

export type EngineDb = BetterSQLite3Database<typeof schema> & {
  readonly engine: Engine;
  readonly tables: Tables;
  /**
   * Runs `work` in one transaction: its writes land together or not at all. A family's queries
   * inside it are made with this same handle (it follows the work's async context).
   */
  atomically<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` in one transaction that no other `exclusively` with the same key runs beside,
   * in any process: it sees every write committed before it began, so it never has to run again
   * (SQLite's single writer is that already; PostgreSQL takes an advisory lock at READ
   * COMMITTED). For a small table every process reads whole and writes (the slot queue), where
   * SERIALIZABLE's conflicts would make concurrent writers run again and again.
   */
  exclusively<T>(key: string, work: () => Promise<T>): Promise<T>;
  /**
   * Runs reads that must agree with each other (a thread and all its rows) on one snapshot of
   * the database: SQLite's gate already keeps other writes out while a call runs; PostgreSQL
   * reads in one REPEATABLE READ transaction.
   */
  snapshot<T>(work: () => Promise<T>): Promise<T>;
};

/** The first row a query answered, or undefined. */
export const first = <R>(rows: readonly R[]): R | undefined => rows[0];

/** How many rows a write changed (SQLite says `changes`, PostgreSQL `rowCount`). */
export function changed(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return r.changes ?? r.rowCount ?? 0;
}

type Preparable = { prepare(): { execute(placeholders?: Record<string, unknown>): unknown } };

/**
 * A query asked often, with placeholders. On SQLite it is compiled once (drizzle otherwise builds
 * its SQL on every call); on PostgreSQL it is built for each call on the handle of the moment, so
 * inside a transaction it runs on the transaction's connection, never on another from the pool.
 */
export function prepared<Q extends Preparable>(db: EngineDb, build: () => Q): ReturnType<Q['prepare']> {
  if (db.engine === 'sqlite') return build().prepare() as ReturnType<Q['prepare']>;
  return { execute: (placeholders?: Record<string, unknown>) => build().prepare().execute(placeholders) } as ReturnType<Q['prepare']>;
}

/** Whether `haystack`'s text holds `needle` (a JSON column's text too): instr() on SQLite, strpos() on PostgreSQL. */
export function contains(db: EngineDb, haystack: SQLWrapper, needle: string | SQLWrapper): SQL<boolean> {
  return db.engine === 'sqlite' ? sql<boolean>`instr(${haystack}, ${needle}) > 0` : sql<boolean>`strpos(${haystack}::text, ${needle}) > 0`;
}

/** How many rows match `condition`, as a number on both engines (SQLite's sum of a comparison is not PostgreSQL's). */
export const countWhere = (condition: SQL) => sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`.mapWith(Number);

/** The row an insert wrote and returned (`.returning()`): there is always one. */
export function writtenRow<R>(rows: readonly R[]): R {
  if (rows.length === 0) throw new Error('the insert returned no row');
  return rows[0];
}

/**
 * A statement written as text with `?` for each parameter, the same text on both engines (only
 * SQL both understand: ON CONFLICT DO NOTHING, IS NOT DISTINCT FROM, RETURNING), as drizzle's SQL.
 */
export function statement(text: string, params: unknown[] = []): SQL {
  const parts = text.split('?');
  if (parts.length !== params.length + 1) throw new Error(`${params.length} parameters for ${parts.length - 1} places: ${text}`);
  return sql.join(parts.flatMap((part, i) => (i < params.length ? [sql.raw(part), sql`${params[i]}`] : [sql.raw(part)])));
}

type Executes = { execute(query: SQL): Promise<{ rows: unknown[]; rowCount: number | null }> };

/**
 * The rows of a statement on one table, each as SQLite stores it (the library file's rows are
 * these): PostgreSQL's 64-bit integers as numbers, booleans as 0 and 1, JSON as its text.
 */
export async function storedRows<T>(db: EngineDb, table: keyof Tables, query: SQL): Promise<T[]> {
  if (db.engine === 'sqlite') return db.all<T>(query);
  const rows = (await (db as unknown as Executes).execute(query)).rows as Record<string, unknown>[];
  const columns = Object.values(getTableColumns(db.tables[table] as unknown as Table));
  const kinds = new Map(columns.map((c) => [c.name, c.dataType]));
  return rows.map((row) => {
    for (const [name, value] of Object.entries(row)) {
      if (value === null) continue;
      const kind = kinds.get(name);
      if (kind === 'number') row[name] = Number(value);
      else if (kind === 'boolean') row[name] = value ? 1 : 0;
      else if (kind === 'json' && typeof value !== 'string') row[name] = JSON.stringify(value);
    }
    return row as T;
  });
}

/** Runs a write statement; answers how many rows it changed. */
export async function runStatement(db: EngineDb, query: SQL): Promise<number> {
  if (db.engine === 'sqlite') return db.run(query).changes;
  return (await (db as unknown as Executes).execute(query)).rowCount ?? 0;
}
