import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { openDatabase } from '@/db/client';
import { openPgStore } from '@/db/pg/store';
import { createStore, type Store } from '@/db/store';
import { makeTempDir } from './temp-dir';

/** A store over a new database file of its own, migrated, for one test. */
export function freshStore(): Store {
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
export async function freshEngineStore(): Promise<Store> {
  if (!TEST_STORE_URL) return freshStore();
  const store = await openPgStore(TEST_STORE_URL, `hearth_${randomBytes(16).toString('hex')}`, { maxConnections: 4, exitOnIdle: true });
  return store as unknown as Store;
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
