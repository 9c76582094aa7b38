import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { copyTheRest, peopleLibraries } from './backup';

test('a backup copies everything in DATA_DIR a restore needs: mcp.json (still private) and the rest, not the database nor files/ (issue 46)', () => {
  const data = makeTempDir('hearth-data');
  for (const name of ['hearth.db', 'hearth.db-wal', 'hearth.db-shm']) fs.writeFileSync(path.join(data, name), 'db');
  fs.mkdirSync(path.join(data, 'files', 'ab'), { recursive: true });
  fs.writeFileSync(path.join(data, 'files', 'ab', 'abcd'), 'a file');
  fs.writeFileSync(path.join(data, 'mcp.json'), '{"mcpServers":{"notes":{"command":"notes","env":{"TOKEN":"secret"}}}}', { mode: 0o600 });
  fs.mkdirSync(path.join(data, 'extra'));
  fs.writeFileSync(path.join(data, 'extra', 'kept.txt'), 'kept');
  const out = path.join(makeTempDir('hearth-backup'), 'copy');
  fs.mkdirSync(out);
  const { copied } = copyTheRest(data, out);
  assert.deepEqual(copied.sort(), ['extra/', 'mcp.json']);
  assert.equal(fs.readFileSync(path.join(out, 'mcp.json'), 'utf8'), fs.readFileSync(path.join(data, 'mcp.json'), 'utf8'));
  assert.equal(fs.statSync(path.join(out, 'mcp.json')).mode & 0o777, 0o600, 'the secrets in it stay private');
  assert.equal(fs.readFileSync(path.join(out, 'extra', 'kept.txt'), 'utf8'), 'kept');
  for (const left of ['hearth.db', 'hearth.db-wal', 'hearth.db-shm', 'files']) assert.ok(!fs.existsSync(path.join(out, left)), left);
});

test('tool servers kept elsewhere (HEARTH_MCP_CONFIG) come in as mcp.json; a backup inside DATA_DIR is not copied into itself', () => {
  const data = makeTempDir('hearth-data');
  const elsewhere = path.join(makeTempDir('hearth-mcp'), 'servers.json');
  fs.writeFileSync(elsewhere, '{"mcpServers":{}}');
  const out = path.join(data, 'backups', 'copy');
  fs.mkdirSync(out, { recursive: true });
  const { copied } = copyTheRest(data, out, elsewhere);
  assert.deepEqual(copied, [`mcp.json (from ${elsewhere})`]);
  assert.equal(fs.readFileSync(path.join(out, 'mcp.json'), 'utf8'), '{"mcpServers":{}}');
  assert.ok(!fs.existsSync(path.join(out, 'backups')));
});

test("each person's library (people/<id>.db) is named for SQLite's backup, and not copied as plain files", () => {
  const data = makeTempDir('hearth-data');
  assert.deepEqual(peopleLibraries(data), [], 'before a second person there are none');
  fs.mkdirSync(path.join(data, 'people'));
  for (const name of ['a.db', 'a.db-wal', 'b.db', 'notes.txt']) fs.writeFileSync(path.join(data, 'people', name), 'x');
  assert.deepEqual(peopleLibraries(data).sort(), [path.join('people', 'a.db'), path.join('people', 'b.db')]);
  const out = path.join(makeTempDir('hearth-backup'), 'copy');
  fs.mkdirSync(out);
  copyTheRest(data, out);
  assert.ok(!fs.existsSync(path.join(out, 'people')), 'a live WAL copied file by file would not open');
});
