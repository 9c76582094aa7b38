import Database from 'better-sqlite3';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '@/lib/shared/config';
import { librarySchema } from './pg/migrate';

/**
 * Whether the main library has accounts, read before the server starts (scripts/prepare-start.ts):
 * then every request needs a login, as with a password in the environment, and Hearth may listen
 * beyond loopback. On PostgreSQL as on SQLite. No database yet (or one from before accounts, or a
 * server not reachable: the server says so itself as it starts): no accounts.
 */
export async function mainLibraryHasAccounts(config: Pick<Config, 'DATA_DIR' | 'DATABASE_URL'>): Promise<boolean> {
  try {
    if (config.DATABASE_URL) {
      const client = new pg.Client({ connectionString: config.DATABASE_URL });
      try {
        await client.connect();
        const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${librarySchema('hearth.db')}".users`);
        return rows[0].n > 0;
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    const db = new Database(path.resolve(config.DATA_DIR, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n > 0;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}
