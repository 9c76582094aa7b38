import { readMigrationFiles } from 'drizzle-orm/migrator';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';

/**
 * Hearth's libraries on PostgreSQL. Each library, the main one and each person's, is a schema of
 * its own in one database (on SQLite each is a file of its own): the same tables in each, so a
 * query on one person's connection has no way to reach another's rows, as on SQLite.
 *
 * The migrations (db/migrations-pg, from db/schema.pg.ts, which is written from db/schema.ts) are
 * applied here rather than by drizzle's migrator, for two things it does not do: every library's
 * schema takes the same migrations (drizzle-kit writes "public". before the tables a foreign key
 * names; here they are left to the search_path), and several Hearth processes starting at once
 * on one database take turns (an advisory lock), where drizzle's would race.
 */

export const PG_MIGRATIONS_FOLDER = path.join(process.cwd(), 'db/migrations-pg');

/** The advisory lock every migration of every library takes (any fixed number; this one spells "hearth"). */
const MIGRATION_LOCK = 0x6865617274;

const SCHEMA = /^hearth(_[0-9a-f]{32})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The schema of a library, from its name in users.library: `hearth.db` (the main library)
 * is `hearth`, `people/<id>.db` is `hearth_<id without its dashes>`.
 */
export function librarySchema(library: string): string {
  if (library === 'hearth.db') return 'hearth';
  const id = /^people\/(.+)\.db$/.exec(library)?.[1];
  if (!id || !UUID.test(id)) throw new Error(`not a library: ${JSON.stringify(library)}`);
  return `hearth_${id.replaceAll('-', '')}`;
}

/** A schema name in SQL (only Hearth's own names are accepted, so quoting is belt and braces). */
export function quoteSchema(schema: string): string {
  if (!SCHEMA.test(schema)) throw new Error(`not a library's schema: ${JSON.stringify(schema)}`);
  return `"${schema}"`;
}

/** The search_path of a library's connections: its own schema, then public (where unaccent is). */
export const searchPath = (schema: string) => `${quoteSchema(schema)}, public`;

/** A library's connection settings (pg's `options`): its search_path, set as the connection opens. */
export const libraryOptions = (schema: string) => `-c search_path=${quoteSchema(schema).slice(1, -1)},public`;

/** How many migrations the library has now, and how many were applied just now. */
export type Migrated = { applied: number; total: number };

/** Brings a library's schema up to date (making it the first time), in one transaction. */
export async function migrateLibrary(pool: Pool, schema: string, folder = PG_MIGRATIONS_FOLDER): Promise<Migrated> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteSchema(schema)}`);
    await client.query(`SET LOCAL search_path TO ${searchPath(schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoteSchema(schema)}.__drizzle_migrations (id serial PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
    );
    const last = await client.query<{ at: string | null }>(`SELECT max(created_at) AS at FROM ${quoteSchema(schema)}.__drizzle_migrations`);
    const since = Number(last.rows[0].at ?? -1);
    let applied = 0;
    for (const migration of migrations) {
      if (migration.folderMillis <= since) continue;
      for (const statement of migration.sql) await run(client, statement);
      await client.query(`INSERT INTO ${quoteSchema(schema)}.__drizzle_migrations (hash, created_at) VALUES ($1, $2)`, [
        migration.hash,
        migration.folderMillis,
      ]);
      applied++;
    }
    await client.query('COMMIT');
    return { applied, total: migrations.length };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new Error(`Hearth could not migrate the library ${schema} on PostgreSQL: ${(err as Error).message}. It was left as it was.`);
  } finally {
    client.release();
  }
}

/** One statement of a migration, with drizzle-kit's "public". left to the search_path. */
async function run(client: PoolClient, statement: string): Promise<void> {
  const text = statement.replaceAll('"public".', '').trim();
  if (text) await client.query(text);
}
