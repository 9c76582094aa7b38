import fs from 'node:fs';
import path from 'node:path';
import { getTableColumns, is, type Column } from 'drizzle-orm';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { getTableConfig as pgTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { openDatabase, type Db } from '../client';
import { sqliteQuantisedVectors } from '../queries/vector-index';
import * as sqliteSchema from '../schema';
import * as pgSchema from '../schema.pg';
import { libraryOptions, librarySchema, migrateLibrary, quoteSchema, searchPath } from './migrate';

/**
 * `npm run db:copy`: a whole installation from one engine to the other, without loss. Every
 * library (the main one, which also holds the people, sessions and settings, and each person's)
 * is copied table by table, row for row, ids and all, into an empty target. What either engine
 * derives from the rows is made there, not copied: the search index (by its triggers, as rows
 * arrive) and, on SQLite, sqlite-vec's quantised vectors (from the whole vectors copied).
 *
 * The attached files are not in the database: they stay in DATA_DIR/files, which a Hearth on
 * PostgreSQL uses as well (docs/postgresql.md).
 */

export type Place = { engine: 'sqlite'; dataDir: string } | { engine: 'postgres'; url: string };

/** Where --from or --to points: a postgres:// address, a DATA_DIR, or a DATA_DIR's hearth.db. */
export function placeOf(value: string): Place {
  if (/^postgres(ql)?:\/\//.test(value)) return { engine: 'postgres', url: value };
  const resolved = path.resolve(value);
  if (path.basename(resolved) === 'hearth.db') return { engine: 'sqlite', dataDir: path.dirname(resolved) };
  if (resolved.endsWith('.db')) throw new Error(`${value}: give the DATA_DIR, or its hearth.db (people's own libraries are found from it)`);
  return { engine: 'sqlite', dataDir: resolved };
}

export type Copied = { library: string; rows: Record<string, number> }[];

type CopiedTable = { sqlite: SQLiteTable; pg: PgTable; name: string };
let ordered: CopiedTable[] | undefined;

/** The tables in an order where each comes after those its foreign keys name (worked out once). */
function tablesInOrder(): CopiedTable[] {
  return (ordered ??= orderTables());
}

function orderTables(): CopiedTable[] {
  const byName = new Map<string, PgTable>();
  for (const value of Object.values(pgSchema) as unknown[]) if (is(value, PgTable)) byName.set(pgTableConfig(value).name, value);
  const tables = Object.values(sqliteSchema).flatMap((v): SQLiteTable[] => (is(v, SQLiteTable) ? [v] : []));
  const ordered: SQLiteTable[] = [];
  const visit = (table: SQLiteTable) => {
    if (ordered.includes(table)) return;
    for (const fk of getTableConfig(table).foreignKeys) {
      const target = fk.reference().foreignTable as SQLiteTable;
      if (target !== table) visit(target);
    }
    ordered.push(table);
  };
  tables.forEach(visit);
  return ordered.map((table) => {
    const name = getTableConfig(table).name;
    const pgTable = byName.get(name);
    if (!pgTable) throw new Error(`db/schema.pg.ts has no table ${name}: npm run db:pg-schema`);
    return { sqlite: table, pg: pgTable, name };
  });
}

/**
 * A row as drizzle gives it to the program, from a row as the driver gave it (keyed by column
 * name). search_rowid is left out: it points into the source's own search index, and the
 * target's triggers set their own.
 */
function decode(columns: [string, Column][], raw: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    if (column.name === 'search_rowid') continue;
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row;
}

/**
 * How many rows a source reads at once, each batch one INSERT in the target: under both engines'
 * limits on parameters (SQLite's 32,766 is the lower), and a few MB of text.
 */
const batchRows = (columns: number) => Math.max(1, Math.min(1000, Math.floor(30_000 / columns)));
const BATCH_BYTES = 8 * 1024 * 1024;
const sizeOf = (row: Record<string, unknown>) =>
  Object.values(row).reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : Buffer.isBuffer(v) ? v.length : 16), 0);

/** The libraries of an installation, from its main library's people (the main one first). */
function librariesOf(main: { library: string }[]): string[] {
  return ['hearth.db', ...new Set(main.map((u) => u.library).filter((l) => l !== 'hearth.db'))];
}

type Source = {
  libraries(): Promise<string[]>;
  /** The rows of a table, a batch at a time, decoded; in one consistent reading of the library. */
  rows(library: string, table: CopiedTable): AsyncIterable<Record<string, unknown>[]>;
  close(): Promise<void>;
};

type Target = {
  /** Refuses a target that already holds a library. */
  checkEmpty(libraries: string[]): Promise<void>;
  begin(library: string): Promise<void>;
  insert(table: CopiedTable, rows: Record<string, unknown>[]): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** Removes the libraries this copy made (it failed part way): the target is as empty as it was, and the copy can run again. */
  discard(libraries: string[]): Promise<void>;
  close(): Promise<void>;
};

function sqliteSource(dataDir: string): Source {
  const open = new Map<string, Db>();
  const library = (file: string) => {
    let db = open.get(file);
    if (!db) {
      const full = path.join(dataDir, file);
      if (!fs.existsSync(full)) throw new Error(`${full} is not there`);
      db = openDatabase(full);
      open.set(file, db);
    }
    return db;
  };
  return {
    async libraries() {
      if (!fs.existsSync(path.join(dataDir, 'hearth.db'))) throw new Error(`${dataDir} holds no hearth.db`);
      const main = library('hearth.db');
      return librariesOf(main.$client.prepare('select library from users').all() as { library: string }[]);
    },
    async *rows(file, table) {
      const db = library(file);
      const columns = Object.entries(getTableColumns(table.sqlite));
      const size = batchRows(columns.length);
      // One read transaction per table: a consistent reading even if something else writes meanwhile.
      db.$client.exec('begin');
      try {
        let batch: Record<string, unknown>[] = [];
        let bytes = 0;
        for (const raw of db.$client.prepare(`select * from "${table.name}"`).iterate() as Iterable<Record<string, unknown>>) {
          const row = decode(columns, raw);
          batch.push(row);
          bytes += sizeOf(row);
          if (batch.length >= size || bytes >= BATCH_BYTES) {
            yield batch;
            batch = [];
            bytes = 0;
          }
        }
        if (batch.length > 0) yield batch;
      } finally {
        db.$client.exec('commit');
      }
    },
    async close() {
      for (const db of open.values()) db.$client.close();
    },
  };
}

function sqliteTarget(dataDir: string): Target {
  let db: Db | null = null;
  return {
    async checkEmpty(libraries) {
      for (const file of libraries)
        if (fs.existsSync(path.join(dataDir, file)))
          throw new Error(`${path.join(dataDir, file)} is already there: db:copy copies into an empty DATA_DIR only`);
    },
    async begin(file) {
      db = openDatabase(path.join(dataDir, file));
      db.$client.exec('begin immediate');
    },
    async insert(table, rows) {
      db!
        .insert(table.sqlite)
        .values(rows as never)
        .run();
    },
    async commit() {
      db!.$client.exec('commit');
      sqliteQuantisedVectors(db!.$client)?.rebuild();
      db!.$client.close();
      db = null;
    },
    async rollback() {
      if (db?.$client.inTransaction) db.$client.exec('rollback');
      db?.$client.close();
      db = null;
    },
    async discard(libraries) {
      for (const file of libraries) for (const made of ['', '-wal', '-shm']) fs.rmSync(path.join(dataDir, file + made), { force: true });
    },
    async close() {},
  };
}

function postgresSource(url: string): Source {
  const pools = new Map<string, pg.Pool>();
  const pool = (file: string) => {
    let p = pools.get(file);
    if (!p) {
      p = new pg.Pool({ connectionString: url, options: libraryOptions(librarySchema(file)), max: 1 });
      pools.set(file, p);
    }
    return p;
  };
  return {
    async libraries() {
      const found = await pool('hearth.db').query<{ library: string }>('select library from users');
      return librariesOf(found.rows);
    },
    async *rows(file, table) {
      const columns = Object.entries(getTableColumns(table.pg));
      const client = await pool(file).connect();
      let done = false;
      try {
        // Read by a cursor in one REPEATABLE READ transaction: one snapshot, a batch at a time.
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query(`DECLARE rows NO SCROLL CURSOR FOR SELECT * FROM "${table.name}"`);
        const size = batchRows(columns.length);
        for (;;) {
          const { rows } = await client.query<Record<string, unknown>>(`FETCH ${size} FROM rows`);
          if (rows.length === 0) break;
          yield rows.map((raw) => decode(columns, raw));
        }
        await client.query('COMMIT');
        done = true;
      } finally {
        // Also when the reader stopped early (the target failed): the cursor's transaction ends here.
        if (!done) await client.query('ROLLBACK').catch(() => undefined);
        client.release();
      }
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.end()));
    },
  };
}

function postgresTarget(url: string): Target {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  let client: pg.PoolClient | null = null;
  let schema = '';
  return {
    async checkEmpty(libraries) {
      for (const file of libraries) {
        const found = await admin.query<{ n: number }>(
          `select count(*)::int as n from information_schema.tables where table_schema = $1 and table_name = 'threads'`,
          [librarySchema(file)],
        );
        if (found.rows[0].n === 0) continue;
        const used = await admin.query<{ n: number }>(
          `select (select count(*) from ${quoteSchema(librarySchema(file))}.threads)::int
                + (select count(*) from ${quoteSchema(librarySchema(file))}.users)::int as n`,
        );
        if (used.rows[0].n > 0)
          throw new Error(`the database already holds a library (${librarySchema(file)}): db:copy copies into an empty one only`);
      }
    },
    async begin(file) {
      schema = librarySchema(file);
      await migrateLibrary(admin, schema);
      client = await admin.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SET LOCAL search_path TO ${searchPath(schema)}`);
      } catch (err) {
        client.release(true);
        client = null;
        throw err;
      }
    },
    async insert(table, rows) {
      for (const row of rows)
        for (const [key, value] of Object.entries(row))
          if (typeof value === 'string' && value.includes('\u0000'))
            throw new Error(
              `${table.name} ${JSON.stringify(row.id ?? row)}: its ${key} holds the NUL character, which PostgreSQL's text cannot hold`,
            );
      await pgDrizzle(client!)
        .insert(table.pg)
        .values(rows as never);
    },
    async commit() {
      // Identity columns were given their values: each goes on from the highest copied.
      for (const table of tablesInOrder())
        for (const column of Object.values(getTableColumns(table.pg)))
          if ((column as unknown as { generatedIdentity?: unknown }).generatedIdentity)
            await client!.query(
              `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max("${column.name}") FROM "${table.name}"), 0) + 1, false)`,
              [`${quoteSchema(schema)}."${table.name}"`, column.name],
            );
      await client!.query('COMMIT');
      client!.release();
      client = null;
    },
    async rollback() {
      if (!client) return;
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      client = null;
    },
    async discard(libraries) {
      for (const file of libraries) await admin.query(`DROP SCHEMA IF EXISTS ${quoteSchema(librarySchema(file))} CASCADE`);
    },
    async close() {
      await admin.end();
    },
  };
}

/** Copies every library of `from` into `to`, which must hold none; each library in one transaction. */
export async function copyInstallation(from: Place, to: Place, log: (line: string) => void = () => {}): Promise<Copied> {
  if (from.engine === to.engine) throw new Error('db:copy copies between SQLite and PostgreSQL: give one of each');
  const source = from.engine === 'sqlite' ? sqliteSource(from.dataDir) : postgresSource(from.url);
  const target = to.engine === 'sqlite' ? sqliteTarget(to.dataDir) : postgresTarget(to.url);
  const copied: Copied = [];
  /** The libraries this copy has begun to make in the target: removed again if it fails. */
  const made: string[] = [];
  try {
    const libraries = await source.libraries();
    await target.checkEmpty(libraries);
    for (const library of libraries) {
      const rows: Record<string, number> = {};
      try {
        made.push(library);
        await target.begin(library);
        for (const table of tablesInOrder()) {
          rows[table.name] = 0;
          for await (const batch of source.rows(library, table)) {
            await target.insert(table, batch);
            rows[table.name] += batch.length;
          }
        }
        await target.commit();
      } catch (err) {
        await target.rollback();
        throw err;
      }
      const total = Object.values(rows).reduce((a, b) => a + b, 0);
      log(`${library}: ${total} rows in ${Object.values(rows).filter((n) => n > 0).length} tables`);
      copied.push({ library, rows });
    }
    return copied;
  } catch (err) {
    await target.discard(made).catch(() => undefined);
    throw err;
  } finally {
    await Promise.all([source.close(), target.close()]);
  }
}
