import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { getTableColumns, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as pgSchema from '../schema.pg';
import { pgSchemaFile } from './generate-schema';

const file = path.join(process.cwd(), 'db/schema.pg.ts');

test('db/schema.pg.ts is what db/schema.ts makes now (after a change to the tables: npm run db:generate)', async () => {
  assert.equal(fs.readFileSync(file, 'utf8'), await pgSchemaFile(file));
});

test("PostgreSQL's newest migration snapshot has every table and column of db/schema.pg.ts", () => {
  const folder = path.join(process.cwd(), 'db/migrations-pg/meta');
  const journal = JSON.parse(fs.readFileSync(path.join(folder, '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
  const newest = String(journal.entries.at(-1)!.idx).padStart(4, '0');
  const snapshot = JSON.parse(fs.readFileSync(path.join(folder, `${newest}_snapshot.json`), 'utf8')) as {
    tables: Record<string, { name: string; columns: Record<string, unknown> }>;
  };
  const migrated = Object.values(snapshot.tables).map((t) => `${t.name}: ${Object.keys(t.columns).sort().join(' ')}`);
  const defined = Object.values(pgSchema)
    .filter((v) => is(v, PgTable))
    .map(
      (t) =>
        `${getTableConfig(t as PgTable).name}: ${Object.values(getTableColumns(t as PgTable))
          .map((c) => c.name)
          .sort()
          .join(' ')}`,
    );
  assert.deepEqual(migrated.sort(), defined.sort());
});
