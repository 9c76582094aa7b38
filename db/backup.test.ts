import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import path from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { openDatabase } from './client';
import { backupDatabase, integrityCheck } from './backup';

test('a backup taken while another connection keeps writing is whole, consistent and finishes', async () => {
  const dir = makeTempDir('hearth-backup');
  const source = path.join(dir, 'hearth.db');
  const hearth = openDatabase(source).$client;
  const insert = hearth.prepare('insert into threads (id, title, created_at, updated_at) values (?, ?, ?, ?)');
  for (let i = 0; i < 2000; i++) insert.run(`before-${i}`, 'x'.repeat(200), i, i);
  // Hearth keeps writing from its own connection while the copy is made.
  let written = 0;
  const writer = setInterval(() => {
    for (let i = 0; i < 50; i++, written++) insert.run(`during-${written}`, 'y'.repeat(200), written, written);
  }, 0);
  let copy;
  try {
    copy = await backupDatabase(source, path.join(dir, 'copy.db'));
  } finally {
    clearInterval(writer);
  }
  assert.ok(copy.pages > 0, 'pages were copied');
  assert.equal(integrityCheck(path.join(dir, 'copy.db')), 'ok');
  const backup = new Database(path.join(dir, 'copy.db'), { readonly: true });
  const count = (backup.prepare("select count(*) as n from threads where id like 'before-%'").get() as { n: number }).n;
  backup.close();
  assert.equal(count, 2000, 'everything written before the backup is in it');
  await assert.rejects(backupDatabase(source, path.join(dir, 'copy.db')), /already exists/, 'a backup never overwrites');
  hearth.close();
});
