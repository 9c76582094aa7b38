import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { eq, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { openDatabase, type Db } from '../client';
import * as schema from '../schema';
import { createStore } from '../store';
import pg from 'pg';
import { copyInstallation, placeOf } from './copy';
import { librarySchema } from './migrate';
import { skipWithoutPostgres, withTestDatabase } from './testing';

const MEMBER = '5d1f6c2a-3b4e-4f70-8a9b-0c1d2e3f4a5b';
const MEMBER_LIBRARY = `people/${MEMBER}.db`;
const TABLES = Object.values(schema).flatMap((v): string[] => (is(v, SQLiteTable) ? [getTableConfig(v).name] : []));

test('--from and --to: a postgres:// address, a DATA_DIR or its hearth.db; any other .db file is refused', () => {
  assert.deepEqual(placeOf('postgres://u@h:5432/d'), { engine: 'postgres', url: 'postgres://u@h:5432/d' });
  assert.deepEqual(placeOf('postgresql://h/d'), { engine: 'postgres', url: 'postgresql://h/d' });
  assert.deepEqual(placeOf('/srv/hearth/data'), { engine: 'sqlite', dataDir: '/srv/hearth/data' });
  assert.deepEqual(placeOf('/srv/hearth/data/hearth.db'), { engine: 'sqlite', dataDir: '/srv/hearth/data' });
  assert.throws(() => placeOf('/srv/hearth/data/people/x.db'), /give the DATA_DIR/);
});

test('a copy is between the two engines, never from one to itself', async () => {
  await assert.rejects(copyInstallation(placeOf('/tmp/a'), placeOf('/tmp/b')), /one of each/);
});

/** A row in every table, with what is hard to carry: accents, quotes, emoji, JSON, booleans, bytes, nulls, times past 32 bits. */
async function fillMain(db: Db) {
  const s = createStore(db);
  const now = 1_765_000_000_123;
  db.insert(schema.users)
    .values([
      { id: 'owner-1', username: 'anne', role: 'owner', passwordHash: 'scrypt$x', library: 'hearth.db', createdAt: now },
      {
        id: MEMBER,
        username: 'bob',
        role: 'member',
        library: MEMBER_LIBRARY,
        createdAt: now,
        turnsPerDay: 20,
        disabled: true,
        email: 'b@example.org',
      },
    ])
    .run();
  db.insert(schema.sessions)
    .values({ id: 'sess', userId: 'owner-1', createdAt: now, expiresAt: now + 1, userAgent: 'Firefox', address: '::1' })
    .run();
  db.insert(schema.invites)
    .values({ id: 'inv', role: 'admin', createdBy: 'owner-1', createdAt: now, expiresAt: now + 5 })
    .run();
  // A queue row as a stopped process left it (it lapses at the first look wherever it lands).
  db.insert(schema.modelQueue)
    .values({
      turnId: 'tq',
      process: 'host:1:ab#1',
      threadId: 'th',
      person: 'owner-1',
      seq: 3,
      serverUrl: 'http://m',
      slot: 0,
      leaseUntil: now,
    })
    .run();
  db.insert(schema.loginAttempts)
    .values([
      { scope: 'address', key: '198.51.100.7', at: now, cleared: true },
      { scope: 'account', key: 'ölund', at: now + 1 },
    ])
    .run();
  db.insert(schema.settings).values({ key: 'userName', value: '"Anne \\"A\\" Ölund"', updatedAt: now }).run();
  db.insert(schema.settingProposals).values({ key: 'searxngUrl', value: '"http://127.0.0.1:8888"', proposedAt: now }).run();
  db.insert(schema.usage)
    .values({ day: '2026-12-06', model: 'qwen3', turns: 3, promptTokens: 9000, generatedTokens: 700, modelMs: 12345 })
    .run();
  db.insert(schema.hostPenalties)
    .values({ host: 'example.org', until: now + 60_000, trips: 2, reason: 'HTTP 429' })
    .run();
  db.insert(schema.hostSpend).values({ host: 'example.org', at: now }).run();
  db.insert(schema.folders).values({ id: 'fo', name: 'Reisen ✈', createdAt: now }).run();
  db.insert(schema.threads)
    .values({
      id: 'th',
      title: 'Voyage à Zürich',
      titleSource: 'user',
      systemPrompt: "Say 'hi'",
      thinking: 'off',
      disabledTools: ['web_search'],
      sampling: { temperature: 0.2 } as never,
      pinned: true,
      folderId: 'fo',
      archived: false,
      model: 'qwen3',
      createdAt: now,
      updatedAt: now + 9,
    })
    .run();
  await s.insertMessage({
    id: 'u1',
    threadId: 'th',
    turnId: 't1',
    parentId: null,
    role: 'user',
    content: 'Où manger une crème brûlée? 🍮',
    status: 'complete',
    now,
  });
  await s.insertMessage({
    id: 'a1',
    threadId: 'th',
    turnId: 't1',
    parentId: 'u1',
    role: 'assistant',
    content: 'Chez « Müller » — près de la gare.',
    status: 'complete',
    now: now + 1,
  });
  await s.insertMessage({
    id: 'a2',
    threadId: 'th',
    turnId: 't2',
    parentId: 'u1',
    role: 'assistant',
    content: 'half writ',
    status: 'streaming',
    now: now + 2,
  });
  db.update(schema.messages).set({ rating: -1, model: 'qwen3', contextBlock: 'notes' }).where(eq(schema.messages.id, 'a1')).run();
  db.insert(schema.turns)
    .values({
      id: 't1',
      threadId: 'th',
      userMessageId: 'u1',
      assistantMessageId: 'a1',
      status: 'done',
      stats: { rounds: 2 },
      events: JSON.stringify([[1, { type: 'thinking', text: 'Sachertorte oder Linzer?' }]]),
      createdAt: now,
      finishedAt: now + 5,
    })
    .run();
  db.insert(schema.turns)
    .values({ id: 't2', threadId: 'th', userMessageId: 'u1', status: 'running', createdAt: now + 2 })
    .run();
  db.insert(schema.turnEvents).values({ turnId: 't2', seq: 1, type: 'delta', data: '{"text":"half"}', createdAt: now }).run();
  db.insert(schema.turnSteps).values({ turnId: 't2', seq: 1, kind: 'tool', data: '{}', createdAt: now }).run();
  db.insert(schema.toolCalls)
    .values({
      id: 't1:c1',
      turnId: 't1',
      threadId: 'th',
      name: 'web_search',
      arguments: '{"q":"Zürich"}',
      ok: false,
      result: '"boom"',
      repeat: true,
      ms: 7,
      createdAt: now,
    })
    .run();
  db.insert(schema.attachments)
    .values({
      id: 'f1',
      messageId: 'u1',
      name: 'menü.txt',
      mime: 'text/plain',
      size: 11,
      sha256: 'ab',
      text: 'Tarte Tatin',
      chars: 11,
      lines: 1,
      createdAt: now,
    })
    .run();
  db.insert(schema.memories).values({ id: 'me', text: 'Anne is vegetarian', createdAt: now, updatedAt: now }).run();
  db.insert(schema.prompts).values({ id: 'pr', name: 'tldr', text: 'Summarise: ', createdAt: now, updatedAt: now }).run();
  await s.appendDecisions({
    layerId: 'hearth',
    scope: 'execution',
    scopeKey: 't1',
    turnId: 't1',
    threadId: 'th',
    maxRecords: 50,
    records: [{ stepId: 'verdict', at: now, modelId: 'm', source: 'native', answers: { verdict: { value: 'answer', p: 0.9 } } as never }],
  });
  await s.createCollection({ id: 'co', name: 'Rezepte', now });
  db.update(schema.collections).set({ shared: true }).run();
  db.insert(schema.collectionFiles)
    .values({
      id: 'cf',
      collectionId: 'co',
      name: 'pâte.md',
      mime: 'text/markdown',
      size: 30,
      sha256: 'cd',
      kind: 'text',
      status: 'ready',
      chunks: 2,
      embedded: 2,
      createdAt: now,
    })
    .run();
  const chunk = (seq: number, text: string) =>
    db
      .insert(schema.docChunks)
      .values({ fileId: 'cf', seq, text, page: null, lineStart: seq + 1, lineEnd: seq + 1 })
      .returning()
      .get().id;
  const first = chunk(0, 'Pâte à choux');
  const second = chunk(1, 'Crème pâtissière');
  await s.storeVectors({
    model: 'embed',
    vectors: [
      { chunkId: first, vector: unit([1, 0, 0, 0]) },
      { chunkId: second, vector: unit([0, 1, 0.2, 0]) },
    ],
  });
  await s.storeMessageVectors({ model: 'embed', vectors: [{ messageId: 'u1', vector: unit([0, 0, 1, 0]) }] });
  db.insert(schema.threadCollections).values({ threadId: 'th', collectionId: 'co' }).run();
}

/** A normalised vector of 8 dimensions (binary quantisation takes a multiple of 8), from its first few. */
const unit = (start: number[]) => {
  const v = [...start, ...Array(8 - start.length).fill(0.01)];
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
};

/** Every row of every table of a library, as SQLite holds it, without what each engine sets itself (search_rowid). */
function everything(db: Db): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES)
    out[table] = (db.$client.prepare(`select * from "${table}"`).all() as Record<string, unknown>[])
      .map((row) => {
        delete row.search_rowid;
        return JSON.stringify(Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? `bytes:${v.toString('hex')}` : v]));
      })
      .sort();
  return out;
}

describe('db:copy between SQLite and PostgreSQL', { skip: skipWithoutPostgres }, () => {
  test('a whole installation goes to PostgreSQL and back with every row of every table, and searches the same', async () => {
    const source = makeTempDir('hearth-copy-from');
    const back = makeTempDir('hearth-copy-back');
    const main = openDatabase(path.join(source, 'hearth.db'));
    await fillMain(main);
    const member = openDatabase(path.join(source, MEMBER_LIBRARY));
    await createStore(member).createThread({ id: 'bob-th', title: "Bob's plans", now: 5 });
    const before = { main: everything(main), member: everything(member) };
    for (const table of TABLES) assert.ok(before.main[table].length > 0, `the test fills ${table} (a new table needs a row here)`);

    await withTestDatabase(async (url) => {
      const there = await copyInstallation(placeOf(source), placeOf(url));
      assert.deepEqual(
        there.map((c) => c.library),
        ['hearth.db', MEMBER_LIBRARY],
      );
      assert.equal(there[0].rows.messages, 3);
      await assert.rejects(copyInstallation(placeOf(source), placeOf(url)), /already holds a library \(hearth\)/);

      const home = await copyInstallation(placeOf(url), placeOf(back));
      assert.deepEqual(home, there, 'as many rows came back as went');
      await assert.rejects(copyInstallation(placeOf(url), placeOf(back)), /already there/);
    });

    const mainBack = openDatabase(path.join(back, 'hearth.db'));
    const memberBack = openDatabase(path.join(back, MEMBER_LIBRARY));
    // The quantised vectors made again changed the index's generation (so a search worker reloads them), by one.
    const generation = (db: Db) => db.select().from(schema.vectorIndex).get()!.generation;
    assert.equal(generation(mainBack), generation(main) + 1);
    mainBack
      .update(schema.vectorIndex)
      .set({ generation: generation(main) })
      .run();
    assert.deepEqual(everything(mainBack), before.main);
    assert.deepEqual(everything(memberBack), before.member);

    // What SQLite derives from the rows was made again: the search index and the quantised vectors.
    const [was, is_] = [createStore(main), createStore(mainBack)];
    for (const match of ['zurich', 'creme', 'tatin', 'sachertorte'].map((w) => ({ words: [w], anyWord: false, prefix: false })))
      assert.deepEqual(
        await is_.searchIndex({ match, filters: { thinking: true }, limit: 10, now: 2e12 }),
        await was.searchIndex({ match, filters: { thinking: true }, limit: 10, now: 2e12 }),
        match.words[0],
      );
    assert.equal(
      (await is_.searchIndex({ match: { words: ['writ'], anyWord: false, prefix: false }, limit: 10, now: 2e12 })).length,
      0,
      'a streaming answer is not indexed',
    );
    const near = { vector: unit([0, 1, 0.1, 0]), collectionIds: ['co'], limit: 2, candidates: 4 };
    assert.deepEqual(await is_.chunksNear(near), await was.chunksNear(near));
    assert.equal((await is_.chunksNear(near)).length, 2);
    assert.deepEqual(
      await is_.messagesNear({ vector: unit([0, 0, 1, 0]), limit: 1 }),
      await was.messagesNear({ vector: unit([0, 0, 1, 0]), limit: 1 }),
    );
    assert.deepEqual(
      (await is_.chunksMatching({ match: { words: ['pate'], anyWord: false, prefix: false }, collectionIds: ['co'], limit: 5 })).length,
      1,
    );
    for (const db of [main, member, mainBack, memberBack]) db.$client.close();
  });
});

describe('db:copy that fails part way', { skip: skipWithoutPostgres }, () => {
  test('leaves the target as empty as it was, and runs again once the cause is gone', async () => {
    const source = makeTempDir('hearth-copy-partial');
    const main = openDatabase(path.join(source, 'hearth.db'));
    main
      .insert(schema.users)
      .values([
        { id: 'owner-1', username: 'anne', role: 'owner', library: 'hearth.db', createdAt: 1 },
        { id: MEMBER, username: 'bob', role: 'member', library: MEMBER_LIBRARY, createdAt: 1 },
      ])
      .run();
    await createStore(main).createThread({ id: 'th', title: 'Kept', now: 1 });
    const back = makeTempDir('hearth-copy-partial-back');
    await withTestDatabase(async (url) => {
      const schemas = async () => {
        const pool = new pg.Pool({ connectionString: url });
        const found = await pool.query<{ name: string }>(
          "select schema_name as name from information_schema.schemata where schema_name like 'hearth%' order by 1",
        );
        await pool.end();
        return found.rows.map((r) => r.name);
      };
      // Bob's library file is missing: the main library was copied first, and is taken out again.
      await assert.rejects(copyInstallation(placeOf(source), placeOf(url)), /is not there/);
      assert.deepEqual(await schemas(), []);
      openDatabase(path.join(source, MEMBER_LIBRARY)).$client.close();
      assert.equal((await copyInstallation(placeOf(source), placeOf(url))).length, 2);
      assert.deepEqual(await schemas(), ['hearth', librarySchema(MEMBER_LIBRARY)]);

      // A NUL character, which PostgreSQL's text cannot hold: the copy stops and names the row.
      await withTestDatabase(async (other) => {
        await createStore(main).insertMessage({
          id: 'nul',
          threadId: 'th',
          turnId: null,
          parentId: null,
          role: 'user',
          content: 'a\u0000b',
          status: 'complete',
          now: 2,
        });
        await assert.rejects(copyInstallation(placeOf(source), placeOf(other)), /messages "nul": its content holds the NUL character/);
        main.$client.prepare("delete from messages where id = 'nul'").run();
      });

      // Back to SQLite, with Bob's schema gone: no file of the copy is left in the folder.
      const pool = new pg.Pool({ connectionString: url });
      await pool.query(`drop schema ${librarySchema(MEMBER_LIBRARY)} cascade`);
      await pool.end();
      await assert.rejects(copyInstallation(placeOf(url), placeOf(back)));
      assert.deepEqual(
        fs.readdirSync(back).filter((f) => f.endsWith('.db') || f.includes('.db-')),
        [],
      );
      assert.equal(fs.existsSync(path.join(back, MEMBER_LIBRARY)), false);
    });
    main.$client.close();
  });
});
