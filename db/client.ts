import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import fs from 'node:fs';
import path from 'node:path';
import * as sqliteVec from 'sqlite-vec';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * Loads sqlite-vec (the vector search of knowledge collections) into a connection; false where
 * its prebuilt extension is missing for this platform: collections then search by words alone.
 */
function loadVectorSearch(sqlite: Database.Database): boolean {
  try {
    sqliteVec.load(sqlite);
    return true;
  } catch {
    return false;
  }
}

/** Whether a connection has sqlite-vec (asked of the connection itself: Next's bundles each have their own copy of this module). */
export function hasVectorSearch(sqlite: Database.Database): boolean {
  try {
    sqlite.prepare('select vec_version()').get();
    return true;
  } catch {
    return false;
  }
}

const MIGRATIONS_FOLDER = path.join(process.cwd(), 'db/migrations');

export class MigrationError extends Error {}

/** Distinct statements kept compiled; Hearth's queries are a few hundred shapes at most. */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Keeps each SQL text's compiled statement for the next call. drizzle compiles its query on
 * every call (BetterSQLiteSession.prepareQuery), which was about a third of the database's
 * time in a turn. A statement still iterating is not handed out again (SQLite would refuse
 * it), and the modes drizzle switches (raw) are reset, so a cached statement behaves as a
 * fresh one. SQLite recompiles a statement itself when a migration changes the schema.
 */
function cacheStatements(sqlite: Database.Database): void {
  const compile = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    const hit = cache.get(source);
    if (hit && !hit.busy) {
      if (hit.reader) hit.raw(false);
      return hit;
    }
    const statement = compile(source);
    if (!hit) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as Database.Database['prepare'];
}

/** How many migrations the journal lists and how many the database has applied. */
function pendingMigrations(sqlite: Database.Database, folder: string): number {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  const hasTable = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = '__drizzle_migrations'").get();
  const applied = hasTable ? (sqlite.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }).n : 0;
  return journal.entries.length - applied;
}

/**
 * Opens (creating if needed) a database file, sets the pragmas and applies pending
 * migrations. Before migrating a database that already holds data it writes a consistent
 * copy aside (`<file>.before-migration-<time>`), so a failed migration loses nothing; drizzle
 * runs the migrations in one transaction, so a failure also leaves the file as it was.
 */
export function openDatabase(file: string, options: { migrationsFolder?: string; maxBytes?: number } = {}): Db {
  const folder = options.migrationsFolder ?? MIGRATIONS_FOLDER;
  if (file !== ':memory:') {
    // The library is one person's: the database is theirs alone (0600), even where an older
    // Hearth made it readable by every account on the machine, and so is a folder made for it.
    // (Only a folder made here is changed: the file may sit in a shared one such as /tmp.)
    if (fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 }) !== undefined) fs.chmodSync(path.dirname(file), 0o700);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(/*turbopackIgnore: true*/ f)) fs.chmodSync(f, 0o600);
  }
  const sqlite = new Database(file);
  cacheStatements(sqlite);
  loadVectorSearch(sqlite);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  if (options.maxBytes) {
    // A size cap: past it SQLite refuses writes with SQLITE_FULL, exactly as on a full disk.
    const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${Math.max(1, Math.floor(options.maxBytes / pageSize))}`);
  }

  const pending = pendingMigrations(sqlite, folder);
  if (pending > 0) {
    const holdsData =
      file !== ':memory:' && (sqlite.prepare("select count(*) as n from sqlite_master where type = 'table'").get() as { n: number }).n > 0;
    if (holdsData) {
      const copy = `${file}.before-migration-${Date.now()}`;
      sqlite.exec(`vacuum into '${copy.replace(/'/g, "''")}'`);
    }
    const db = drizzle(sqlite, { schema });
    try {
      migrate(db, { migrationsFolder: folder });
    } catch (err) {
      sqlite.close();
      throw new MigrationError(`Hearth could not migrate ${file}: ${(err as Error).message}. The database was left as it was.`);
    }
  }
  return drizzle(sqlite, { schema }) as Db;
}
