import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL for tests: TEST_DATABASE_URL names a server where the tests may make databases
 * (CI sets it; `npm test` says when it is not set and skips these tests). Each test gets a fresh
 * database of its own, dropped after it, so tests run in any order and side by side.
 */

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || null;

/** node:test's `skip` for a PostgreSQL test: false when a server is set, else why not. */
export const skipWithoutPostgres = TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set (no PostgreSQL server to test against)';

/**
 * Drops a test's database once its connections are gone. A pool's end() resolves a moment before
 * the server has let its connections go, and DROP ... WITH (FORCE) would then end them under a
 * client that no longer listens for errors (an uncaught error in the test), so it waits for them.
 */
async function dropWhenClosed(admin: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '55006') throw err; // 55006: the database is in use
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** Runs `fn` with the address of a new, empty database on TEST_DATABASE_URL's server, then drops it. */
export async function withTestDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  return withScratchDatabase(TEST_DATABASE_URL, fn);
}

/** Runs `fn` with the address of a new, empty database on the server `server` names (a test's, the bench's), then drops it. */
export async function withScratchDatabase<T>(server: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `hearth_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    try {
      return await fn(url.toString());
    } finally {
      await dropWhenClosed(admin, name);
    }
  } finally {
    await admin.end();
  }
}

/**
 * A new, empty database on the server of `url`, named after `url`'s own database (a test pass's
 * databases are found by that name and dropped together: dropDatabasesBeside).
 */
export async function makeDatabaseBeside(url: string): Promise<string> {
  const base = new URL(url);
  const name = `${base.pathname.slice(1)}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  base.pathname = `/${name}`;
  return base.toString();
}

/** Drops every database makeDatabaseBeside made beside `url`'s. */
export async function dropDatabasesBeside(url: string): Promise<void> {
  const base = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const made = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`${base}_`]);
    for (const { datname } of made.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
