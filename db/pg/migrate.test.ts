import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { openDatabase } from '../client';
import * as schema from '../schema';
import { libraryOptions, librarySchema, migrateLibrary, quoteSchema, searchPath } from './migrate';
import { skipWithoutPostgres, withTestDatabase } from './testing';

const ALICE = 'people/0b7c3c1e-6f43-4c55-9a53-2b1f7a0d9e21.db';

test('a library file names its schema; anything else is refused', () => {
  assert.equal(librarySchema('hearth.db'), 'hearth');
  assert.equal(librarySchema(ALICE), 'hearth_0b7c3c1e6f434c559a532b1f7a0d9e21');
  for (const bad of ['people/x.db', 'people/../hearth.db', 'other.db', 'people/0B7C3C1E-6F43-4C55-9A53-2B1F7A0D9E21.db'])
    assert.throws(() => librarySchema(bad), /not a library/, bad);
  assert.throws(() => quoteSchema('hearth"; drop table users; --'), /not a library's schema/);
  assert.equal(searchPath('hearth'), '"hearth", public');
  assert.equal(libraryOptions('hearth'), '-c search_path=hearth,public');
});

/** The columns of every table of db/schema.ts as SQLite's migrations made them: name → "column null|not null". */
function sqliteColumns(): Map<string, string[]> {
  const db = openDatabase(':memory:');
  const out = new Map<string, string[]>();
  for (const value of Object.values(schema)) {
    if (!is(value, SQLiteTable)) continue;
    const { name } = getTableConfig(value);
    const columns = db.$client.prepare(`select name, "notnull" as required, pk from pragma_table_info(?)`).all(name) as {
      name: string;
      required: number;
      pk: number;
    }[];
    out.set(name, columns.map((c) => `${c.name} ${c.required || c.pk ? 'not null' : 'null'}`).sort());
  }
  db.$client.close();
  return out;
}

describe('PostgreSQL migrations', { skip: skipWithoutPostgres }, () => {
  test('every library gets the tables and columns SQLite has, once, in a schema of its own; two processes migrating at once take turns', async () => {
    await withTestDatabase(async (url) => {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      const other = new pg.Pool({ connectionString: url, max: 4 });
      try {
        const settled = await Promise.allSettled([migrateLibrary(pool, 'hearth'), migrateLibrary(other, 'hearth')]);
        const [first, racing] = settled.map((s) => {
          if (s.status === 'rejected') throw s.reason;
          return s.value;
        });
        assert.equal(first.applied + racing.applied, first.total, 'each migration applied once between the two');
        assert.ok(first.total >= 2);
        assert.deepEqual(await migrateLibrary(pool, 'hearth'), { applied: 0, total: first.total });
        await migrateLibrary(pool, librarySchema(ALICE));

        const expected = sqliteColumns();
        for (const library of ['hearth', librarySchema(ALICE)]) {
          const { rows } = await pool.query<{ table: string; column: string; nullable: string }>(
            `select table_name as table, column_name as column, is_nullable as nullable
               from information_schema.columns where table_schema = $1`,
            [library],
          );
          for (const [table, columns] of expected) {
            const found = rows
              .filter((r) => r.table === table && !(table === 'doc_chunks' && r.column === 'words'))
              .map((r) => `${r.column} ${r.nullable === 'YES' ? 'null' : 'not null'}`)
              .sort();
            assert.deepEqual(found, columns, `${library}.${table}`);
          }
        }
      } finally {
        await Promise.all([pool.end(), other.end()]);
      }
    });
  });

  test('history search: the index follows every write, folds case and accents in any language, and one library never sees another', async () => {
    await withTestDatabase(async (url) => {
      const admin = new pg.Pool({ connectionString: url });
      await migrateLibrary(admin, 'hearth');
      await migrateLibrary(admin, librarySchema(ALICE));
      await admin.end();
      const library = (schema: string) => new pg.Pool({ connectionString: url, options: libraryOptions(schema) });
      const main = library('hearth');
      const alice = library(librarySchema(ALICE));
      const found = async (db: pg.Pool, words: string) =>
        (
          await db.query<{ kind: string; ref_id: string }>(
            `select kind, ref_id from search_index where words @@ plainto_tsquery('hearth_words', $1) order by kind, ref_id`,
            [words],
          )
        ).rows.map((r) => `${r.kind}:${r.ref_id}`);
      try {
        await main.query(`insert into threads (id, title, created_at, updated_at) values ('t1', 'Voyage à Zürich', 1, 1)`);
        await main.query(
          `insert into messages (id, thread_id, role, content, status, created_at) values
             ('m1', 't1', 'user', 'Où manger une crème brûlée près de la gare?', 'complete', 2),
             ('m2', 't1', 'assistant', 'Die Bäckerei Müller am Hauptbahnhof', 'streaming', 3)`,
        );
        assert.deepEqual(await found(main, 'ZURICH'), ['title:t1']);
        assert.deepEqual(await found(main, 'creme brulee'), ['message:m1']);
        assert.deepEqual(await found(main, 'backerei muller'), [], 'a streaming answer is not indexed yet');
        await main.query(`update messages set status = 'complete' where id = 'm2'`);
        assert.deepEqual(await found(main, 'bäckerei'), ['message:m2']);
        await main.query(`update messages set content = 'Das Café am See' where id = 'm2'`);
        assert.deepEqual(await found(main, 'muller'), []);
        assert.deepEqual(await found(main, 'cafe'), ['message:m2']);

        await main.query(
          `insert into attachments (id, message_id, name, mime, size, sha256, text, created_at)
             values ('a1', 'm1', 'menü.txt', 'text/plain', 5, 'x', 'Tarte Tatin', 4)`,
        );
        const attachment = await main.query(`select thread_id, role from search_index where kind = 'attachment' and ref_id = 'a1'`);
        assert.deepEqual(attachment.rows, [{ thread_id: 't1', role: 'user' }]);
        assert.deepEqual(await found(main, 'menu tatin'), ['attachment:a1']);

        const events = JSON.stringify([
          [1, { type: 'thinking', text: 'Penser à la Sachertorte' }],
          [2, { type: 'delta', text: 'no' }],
          [3, { type: 'thinking', text: 'und Linzer' }],
        ]);
        await main.query(`insert into turns (id, thread_id, user_message_id, status, created_at) values ('u1', 't1', 'm1', 'running', 5)`);
        assert.deepEqual(await found(main, 'sachertorte'), []);
        await main.query(`update turns set events = $1, status = 'done' where id = 'u1'`, [events]);
        assert.deepEqual(await found(main, 'sachertorte linzer'), ['thinking:u1']);
        assert.deepEqual(await found(main, 'no'), [], 'only the thinking of a turn is indexed');
        // A NUL a model wrote (jsonb refuses its escape) neither refuses the write nor hides the rest.
        await main.query(
          `insert into turns (id, thread_id, user_message_id, status, events, created_at) values ('u2', 't1', 'm1', 'done', $1, 6)`,
          [JSON.stringify([[1, { type: 'thinking', text: 'Null\u0000byte, then Stollen' }]])],
        );
        assert.deepEqual(await found(main, 'stollen'), ['thinking:u2']);

        await main.query(`insert into collections (id, name, created_at, updated_at) values ('c1', 'Rezepte', 6, 6)`);
        await main.query(
          `insert into collection_files (id, collection_id, name, mime, size, sha256, kind, created_at)
             values ('f1', 'c1', 'r.md', 'text/markdown', 9, 'y', 'text', 6)`,
        );
        await main.query(`insert into doc_chunks (file_id, seq, text, line_start, line_end) values ('f1', 0, 'Pâte à choux', 1, 1)`);
        const chunk = await main.query(`select seq from doc_chunks where words @@ plainto_tsquery('hearth_words', 'pate choux')`);
        assert.deepEqual(chunk.rows, [{ seq: '0' }]);

        assert.deepEqual(await found(alice, 'zurich'), [], "another library's search index is its own");
        assert.equal((await alice.query('select count(*)::int as n from threads')).rows[0].n, 0);

        await main.query(`delete from threads where id = 't1'`);
        assert.deepEqual((await main.query('select kind, ref_id from search_index order by kind')).rows, [
          { kind: 'attachment', ref_id: 'a1' },
        ]);
        assert.equal(
          (await main.query(`select thread_id from search_index where ref_id = 'a1'`)).rows[0].thread_id,
          null,
          'an attachment whose message is gone keeps no thread (as on SQLite)',
        );
      } finally {
        await Promise.all([main.end(), alice.end()]);
      }
    });
  });
});
