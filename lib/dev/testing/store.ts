import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '@/db/client';
import pg from 'pg';
import { statement, storedRows, type Tables } from '@/db/engine';
import { libraryOptions } from '@/db/pg/migrate';
import { openPgStore, pgEngineDb } from '@/db/pg/store';
import { createStore, type SqliteStore, type Store } from '@/db/store';
import { makeTempDir } from './temp-dir';

/** A store over a new database file of its own, migrated, for one test. */
export function freshStore(): SqliteStore {
  return createStore(openDatabase(path.join(makeTempDir('hearth-store'), 'h.db')));
}

/**
 * The database `npm test` made for its second pass over the store's tests, on PostgreSQL
 * (scripts/run-unit-tests.ts); unset, the tests run on SQLite.
 */
export const TEST_STORE_URL = process.env.HEARTH_TEST_STORE_URL || null;

/** The engine a store test runs on in this pass. */
export const testEngine = TEST_STORE_URL ? ('postgres' as const) : ('sqlite' as const);

/**
 * A store of its own for one test of the engine-neutral query families, on the engine of this
 * pass: SQLite's file, or a library schema of its own on PostgreSQL. Typed as SQLite's store so
 * the tests are written once; a test that reaches below the port (the SQLite handle) says so
 * with `sqliteOnly` and is skipped on PostgreSQL.
 */
export async function freshEngineStore(): Promise<SqliteStore> {
  if (!TEST_STORE_URL) return freshStore();
  const store = await openPgStore(TEST_STORE_URL, `hearth_${randomBytes(16).toString('hex')}`, { maxConnections: 4 });
  return store as unknown as SqliteStore;
}

/** node:test's `skip` for a test that reads SQLite's file directly. */
export const sqliteOnly = testEngine === 'postgres' ? 'reads the SQLite database below the store' : false;

/** A thread with one exchange: the question, the answer and the turn between them. */
export async function seedExchange(
  store: Store,
  ids: { thread: string; user?: string; assistant?: string; turn?: string },
  opts: { now?: number; question?: string; answer?: string } = {},
) {
  const now = opts.now ?? 1000;
  const user = ids.user ?? `${ids.thread}-u`;
  const assistant = ids.assistant ?? `${ids.thread}-a`;
  const turn = ids.turn ?? `${ids.thread}-t`;
  if (!(await store.getThread({ id: ids.thread }))) await store.createThread({ id: ids.thread, title: '', now });
  await store.insertMessage({
    id: user,
    threadId: ids.thread,
    turnId: turn,
    parentId: null,
    role: 'user',
    content: opts.question ?? 'Question?',
    status: 'complete',
    now,
  });
  await store.insertMessage({
    id: assistant,
    threadId: ids.thread,
    turnId: turn,
    parentId: user,
    role: 'assistant',
    content: opts.answer ?? 'Answer.',
    status: 'complete',
    now: now + 1,
  });
  await store.insertTurn({ id: turn, threadId: ids.thread, userMessageId: user, assistantMessageId: assistant, now });
  return { user, assistant, turn };
}

/** The SQLite connection below a store, for a test that reads or breaks the file directly. */
export function sqliteOf(store: Store) {
  if (!('db' in store)) throw new Error(`this test reads SQLite directly, and the store is on ${store.place.engine}`);
  return (store as SqliteStore).db.$client;
}

/**
 * Rows a statement reads from one table of a store's library, as SQLite stores them (numbers,
 * booleans 0 and 1, JSON as text), on either engine: for a test that checks what is stored
 * row by row. `?` marks each parameter.
 */
export async function storedRowsOf<T = Record<string, unknown>>(
  store: Store,
  table: keyof Tables,
  text: string,
  ...params: unknown[]
): Promise<T[]> {
  const place = store.place;
  if (place.engine === 'sqlite')
    return sqliteOf(store)
      .prepare(text)
      .all(...params) as T[];
  const pool = new pg.Pool({ connectionString: place.url, options: libraryOptions(place.schema), max: 1, allowExitOnIdle: true });
  try {
    return await storedRows<T>(pgEngineDb(pool), table, statement(text, params));
  } finally {
    await pool.end();
  }
}
