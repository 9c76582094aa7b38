import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ContextRuntime } from '@/lib/turns/context/layers';
import { decisionsHistoryLayer, type DecisionStorage } from '@/lib/turns/decide/history';
import { openDatabase, MigrationError } from './client';
import { createStore } from './store';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';

const tempDir = () => makeTempDir('hearth-db');

test('opens with WAL, foreign keys and a busy timeout, and migrates a new file', () => {
  const dir = tempDir();
  const db = openDatabase(path.join(dir, 'h.db'));
  assert.equal(db.$client.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.$client.pragma('foreign_keys', { simple: true }), 1);
  assert.equal(db.$client.pragma('busy_timeout', { simple: true }), 5000);
  const tables = db.$client
    .prepare("select name from sqlite_master where type='table'")
    .all()
    .map((r) => (r as { name: string }).name);
  for (const t of [
    'threads',
    'messages',
    'turns',
    'turn_events',
    'turn_steps',
    'tool_calls',
    'attachments',
    'memories',
    'decision_records',
    'host_penalties',
  ]) {
    assert.ok(tables.includes(t), t);
  }
  assert.deepEqual(
    fs.readdirSync(dir).filter((f) => f.includes('before-migration')),
    [],
    'no copy for a new database',
  );
  db.$client.close();
});

test('a statement is compiled once per SQL text and comes back as a fresh one would', async () => {
  const db = openDatabase(':memory:');
  const sqlite = db.$client;
  sqlite.exec('create table t (n integer); insert into t values (1), (2), (3)');
  const source = 'select n from t order by n';
  const first = sqlite.prepare(source);
  assert.equal(sqlite.prepare(source), first, 'the same statement again');
  first.raw();
  assert.deepEqual(first.all(), [[1], [2], [3]]);
  assert.deepEqual(sqlite.prepare(source).all(), [{ n: 1 }, { n: 2 }, { n: 3 }], 'raw mode is reset');
  // One still iterating is not handed out again: SQLite would refuse to run it twice.
  const seen: unknown[] = [];
  for (const row of sqlite.prepare(source).iterate()) seen.push([row, sqlite.prepare(source).get()]);
  assert.deepEqual(seen[0], [{ n: 1 }, { n: 1 }]);
  assert.equal(seen.length, 3);
  // Writes through drizzle's prepared queries and its builder still land (they share the cache).
  const store = createStore(db);
  await store.createThread({ id: 'a', title: '', now: 1 });
  await store.touchThread({ id: 'a', now: 5 });
  assert.equal((await store.getThread({ id: 'a' }))?.updatedAt, 5);
});

test('a pending migration copies the database aside first; a failing one stops and loses nothing', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'h.db');
  const db = openDatabase(file);
  await createStore(db).createThread({ id: '00000000-0000-4000-8000-000000000001', title: 'keep me', now: 1 });
  db.$client.close();

  // A copy of the real migrations plus one that fails half-way.
  const migrations = path.join(dir, 'migrations');
  fs.cpSync(path.join(process.cwd(), 'db/migrations'), migrations, { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8'));
  journal.entries.push({ idx: journal.entries.length, version: '6', when: Date.now(), tag: '9999_broken', breakpoints: true });
  fs.writeFileSync(path.join(migrations, 'meta/_journal.json'), JSON.stringify(journal));
  fs.writeFileSync(
    path.join(migrations, '9999_broken.sql'),
    'ALTER TABLE threads ADD COLUMN extra text;\n--> statement-breakpoint\nTHIS IS NOT SQL;',
  );

  assert.throws(() => openDatabase(file, { migrationsFolder: migrations }), MigrationError);
  const copies = fs.readdirSync(dir).filter((f) => f.includes('before-migration'));
  assert.equal(copies.length, 1, 'the database was copied aside before migrating');

  const again = openDatabase(file); // the real migrations: nothing pending
  const store = createStore(again);
  assert.equal((await store.getThread({ id: '00000000-0000-4000-8000-000000000001' }))?.title, 'keep me');
  const cols = again.$client
    .prepare('pragma table_info(threads)')
    .all()
    .map((c) => (c as { name: string }).name);
  assert.ok(!cols.includes('extra'), 'the failed migration was rolled back whole');
  again.$client.close();
});

test('decision records persist in SQLite by scope and survive a reopen', async () => {
  const file = path.join(tempDir(), 'h.db');
  const storage = (store: ReturnType<typeof createStore>): DecisionStorage => ({
    load: (a) => store.loadDecisions(a),
    append: ({ layerId, scope, scopeKey, record, maxRecords, ctx }) =>
      store.appendDecisions({ layerId, scope, scopeKey, records: [record], maxRecords, turnId: ctx.executionId, threadId: ctx.threadId }),
  });
  const ctx = { executionId: 'turn-1', threadId: 'thread-1', resourceId: 'me' };
  let db = openDatabase(file);
  for (const scope of ['execution', 'thread', 'resource'] as const) {
    const rt = await ContextRuntime.create(
      [decisionsHistoryLayer({ scope, storage: storage(createStore(db)), maxRecords: 2 })] as const,
      ctx,
    );
    for (let i = 1; i <= 3; i++)
      await rt.recordDecision({
        stepId: `s${i}`,
        at: i,
        modelId: 'm',
        source: 'native',
        answers: { x: { kind: 'boolean', value: true, p: 0.5 } },
      });
  }
  db.$client.close();
  db = openDatabase(file);
  for (const scope of ['execution', 'thread', 'resource'] as const) {
    const rt = await ContextRuntime.create(
      [decisionsHistoryLayer({ scope, storage: storage(createStore(db)), maxRecords: 2 })] as const,
      ctx,
    );
    assert.deepEqual(
      rt.context.decisionsHistory.all.map((r) => r.stepId),
      ['s2', 's3'],
      `${scope}: newest two kept across the restart`,
    );
  }
  db.$client.close();
});

test('host penalties survive a restart', async () => {
  const file = path.join(tempDir(), 'h.db');
  let db = openDatabase(file);
  await createStore(db).setPenalty({ host: 'a.example', until: 99, reason: 'r' });
  db.$client.close();
  db = openDatabase(file);
  assert.equal((await createStore(db).penaltyOf({ host: 'a.example' }))?.until, 99);
  db.$client.close();
});

test('migration 0011 makes each earlier thread one branch: every message follows the one before it, the newest shown', () => {
  const dir = tempDir();
  const file = path.join(dir, 'h.db');
  // The database as Hearth kept it before branches: the migrations up to 0010.
  const migrations = path.join(dir, 'migrations');
  fs.cpSync(path.join(process.cwd(), 'db/migrations'), migrations, { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < '0011');
  fs.writeFileSync(path.join(migrations, 'meta/_journal.json'), JSON.stringify(journal));
  const old = openDatabase(file, { migrationsFolder: migrations });
  const insertThread = old.$client.prepare("INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, '', 1, 1)");
  const insertMessage = old.$client.prepare(
    "INSERT INTO messages (id, thread_id, role, content, status, created_at) VALUES (?, ?, ?, ?, 'complete', ?)",
  );
  insertThread.run('t1');
  insertThread.run('t2');
  // Out of order on purpose; "a2" and "u3" share a millisecond (the answer came first on the page).
  insertMessage.run('u3', 't1', 'user', 'third question', 50);
  insertMessage.run('u1', 't1', 'user', 'first question', 10);
  insertMessage.run('a2', 't1', 'assistant', 'second answer', 50);
  insertMessage.run('a1', 't1', 'assistant', 'first answer', 11);
  insertMessage.run('u2', 't1', 'user', 'second question', 30);
  insertMessage.run('x1', 't2', 'user', 'other thread', 20);
  old.$client.close();

  const db = openDatabase(file);
  const parents = Object.fromEntries(
    db.$client
      .prepare('SELECT id, parent_id FROM messages')
      .all()
      .map((r) => [(r as { id: string }).id, (r as { parent_id: string | null }).parent_id]),
  );
  assert.deepEqual(parents, { u1: null, a1: 'u1', u2: 'a1', a2: 'u2', u3: 'a2', x1: null });
  const leaves = db.$client.prepare('SELECT id, current_leaf_id FROM threads ORDER BY id').all();
  assert.deepEqual(leaves, [
    { id: 't1', current_leaf_id: 'u3' },
    { id: 't2', current_leaf_id: 'x1' },
  ]);
  db.$client.close();
});
