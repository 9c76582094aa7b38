import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { searchLibrary } from '@/lib/data/search/search';
import { seedExchange, sqliteOf } from '@/lib/dev/testing/store';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { openDatabase } from './client';
import { MAX_SCORED, RECENCY_HALF_LIFE_MS } from './queries/search';
import { createStore, type Store } from './store';

/** The search index through the database: triggers, the migration's backfill, ranking, filters, odd queries. */

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 11, 1);

function fresh(): Store {
  return createStore(openDatabase(path.join(makeTempDir('hearth-search'), 'h.db')));
}

function thread(store: Store, title = '', now = NOW) {
  return store.createThread({ id: randomUUID(), title, now });
}

async function message(
  store: Store,
  threadId: string,
  content: string,
  opts: { role?: 'user' | 'assistant'; now?: number; status?: 'complete' | 'streaming' } = {},
) {
  const id = randomUUID();
  await store.insertMessage({
    id,
    threadId,
    turnId: null,
    parentId: null,
    role: opts.role ?? 'user',
    content,
    status: opts.status ?? 'complete',
    now: opts.now ?? NOW,
  });
  return id;
}

const find = (store: Store, query: string, filters = {}) => searchLibrary(store, { query, limit: 20, now: NOW, filters });
const ids = (hits: { messageId: string | null }[]) => hits.map((h) => h.messageId);

describe('the index follows the rows, whoever writes them', () => {
  test('a message is found once written; a streaming answer only once it is complete', async () => {
    const s = fresh();
    const t = await thread(s, 'Baking');
    const q = await message(s, t.id, 'How long should a sourdough starter rest?');
    const a = await message(s, t.id, '', { role: 'assistant', status: 'streaming' });
    await s.updateMessage({ id: a, content: 'The starter wants' });
    assert.deepEqual(ids(await find(s, 'starter')), [q], 'a partial save during the stream is not indexed');
    await s.updateMessage({ id: a, content: 'The starter wants twelve hours at room temperature.', status: 'complete' });
    assert.deepEqual(new Set(ids(await find(s, 'starter'))), new Set([q, a]));
    assert.deepEqual(ids(await find(s, 'twelve hours')), [a]);
    await s.updateMessage({ id: a, content: 'Changed entirely.' });
    assert.deepEqual(ids(await find(s, 'twelve')), [], 'an edit replaces what was indexed');
  });

  test('titles are found, renamed titles by their new name only', async () => {
    const s = fresh();
    const t = await thread(s, 'Holiday plans');
    assert.deepEqual(
      (await find(s, 'holiday')).map((h) => [h.kind, h.threadId]),
      [['title', t.id]],
    );
    await s.updateThread({ id: t.id, patch: { title: 'Trip to Lisbon' } });
    assert.deepEqual(await find(s, 'holiday'), []);
    assert.equal((await find(s, 'lisbon'))[0].threadTitle, 'Trip to Lisbon');
  });

  test('an attachment is found by its name and text, in the thread of the message it came with', async () => {
    const s = fresh();
    const t = await thread(s, 'Taxes');
    const att = await s.insertAttachment({
      id: randomUUID(),
      name: 'invoice-march.pdf',
      mime: 'application/pdf',
      size: 10,
      sha256: 'x',
      text: 'Total due: 42 EUR by April.',
      now: NOW,
    });
    assert.deepEqual(await find(s, 'invoice'), [], 'not yet sent with a message: nowhere to open it');
    const m = await message(s, t.id, 'Here is the file');
    await s.linkAttachments({ ids: [att.id], messageId: m });
    const byName = await find(s, 'invoice march');
    assert.equal(byName.length, 1);
    assert.deepEqual(
      [byName[0].kind, byName[0].threadId, byName[0].messageId, byName[0].attachment?.name],
      ['attachment', t.id, m, 'invoice-march.pdf'],
    );
    assert.equal((await find(s, 'april'))[0].kind, 'attachment');
  });

  test('deleting a thread takes its messages, titles and files out of search, and the files out of the database', async () => {
    const s = fresh();
    const t = await thread(s, 'Secret project');
    const m = await message(s, t.id, 'The password hint is blue giraffe');
    const att = await s.insertAttachment({
      id: randomUUID(),
      name: 'plan.txt',
      mime: 'text/plain',
      size: 5,
      sha256: 'y',
      text: 'giraffe plan',
      now: NOW,
    });
    await s.linkAttachments({ ids: [att.id], messageId: m });
    assert.equal((await find(s, 'giraffe')).length, 2);
    assert.ok(await s.deleteThread({ id: t.id }));
    assert.deepEqual(await find(s, 'giraffe'), []);
    assert.deepEqual(await find(s, 'secret'), []);
    assert.equal((sqliteOf(s).prepare('select count(*) n from attachments').get() as { n: number }).n, 0);
  });
});

describe('a model’s thinking', () => {
  test('is found only when the search asks for it, at the answer it led to; recompacting and deleting follow', async () => {
    const store = fresh();
    const t = await thread(store, 'Tides');
    const { turn, assistant } = await seedExchange(
      store,
      { thread: t.id },
      { now: NOW, question: 'Why tides?', answer: 'The Moon pulls the sea.' },
    );
    await store.storeCompactLog({
      turnId: turn,
      events: [
        { seq: 1, type: 'turn', data: 'turn' },
        { seq: 3, type: 'thinking', data: { type: 'thinking', text: 'Consider the gravitational gradient first.', whole: true } },
        { seq: 4, type: 'thought', data: { type: 'thought', ms: 900, tokens: 6 } },
        { seq: 5, type: 'draft', data: 'answer-draft' },
      ],
    });
    const find = async (query: string, thinking?: boolean) =>
      (await searchLibrary(store, { query, limit: 10, now: NOW, filters: thinking ? { thinking } : {} })).map((h) => [h.kind, h.messageId]);
    assert.deepEqual(await find('gravitational'), [], 'left out of a plain search');
    assert.deepEqual(await find('gravitational', true), [['thinking', assistant]]);
    assert.match(
      (await searchLibrary(store, { query: 'gradient', limit: 1, now: NOW, filters: { thinking: true } }))[0].snippet,
      /gradient/,
    );
    assert.deepEqual(await find('Moon', true), [['message', assistant]], 'the answer is a message hit as before');
    // Written again (a resumed turn compacted once more): the old words go, the new ones come.
    await store.storeCompactLog({
      turnId: turn,
      events: [{ seq: 3, type: 'thinking', data: { type: 'thinking', text: 'Think about orbital resonance.', whole: true } }],
    });
    assert.deepEqual(await find('gravitational', true), []);
    assert.deepEqual(await find('resonance', true), [['thinking', assistant]]);
    await store.deleteThread({ id: t.id });
    assert.deepEqual(await find('resonance', true), [], 'gone with its thread');
  });
});

describe('ranking and filters', () => {
  test('bm25 weighed by recency: the same match ranks the newer first; a far better old match still wins', async () => {
    const s = fresh();
    const t = await thread(s);
    // Most of a library is about other things (a word in every message would weigh nothing).
    for (let i = 0; i < 20; i++) await message(s, t.id, `Unrelated note ${i} about trains, tides and timetables.`, { now: NOW - i * DAY });
    const old = await message(s, t.id, 'Notes on tomato soup.', { now: NOW - 365 * DAY });
    const recent = await message(s, t.id, 'Notes on tomato soup.', { now: NOW - DAY });
    assert.deepEqual(ids(await find(s, 'tomato')), [recent, old]);
    const strongOld = await message(s, t.id, 'Tomato varieties', { now: NOW - RECENCY_HALF_LIFE_MS / 4 });
    const weakNew = await message(
      s,
      t.id,
      `A long message about many other things and gardens, ${'and more words '.repeat(40)} with a single tomato.`,
      { now: NOW },
    );
    const ranked = ids(await find(s, 'tomato'));
    assert.ok(ranked.indexOf(strongOld) < ranked.indexOf(weakNew), JSON.stringify(ranked));
  });

  test('search ignores case, both ways', async () => {
    const s = fresh();
    const t = await thread(s);
    const upper = await message(s, t.id, 'BITCOIN rallied overnight');
    const mixed = await message(s, t.id, 'Bitcoin fell back by noon', { now: NOW - DAY });
    for (const q of ['bitcoin', 'BITCOIN', 'BitCoin']) assert.deepEqual(new Set(ids(await find(s, q))), new Set([upper, mixed]), q);
  });

  test('filters: this thread, who wrote it, a date range', async () => {
    const s = fresh();
    const a = await thread(s);
    const b = await thread(s);
    const inA = await message(s, a.id, 'lentil curry for tonight', { now: NOW - 10 * DAY });
    const answerA = await message(s, a.id, 'A lentil curry takes 40 minutes', { role: 'assistant', now: NOW - 10 * DAY + 1 });
    const inB = await message(s, b.id, 'lentil soup recipe', { now: NOW - DAY });
    assert.deepEqual(new Set(ids(await find(s, 'lentil', { threadId: a.id }))), new Set([inA, answerA]));
    assert.deepEqual(ids(await find(s, 'lentil', { role: 'assistant' })), [answerA]);
    assert.deepEqual(ids(await find(s, 'lentil', { from: NOW - 2 * DAY })), [inB]);
    assert.deepEqual(new Set(ids(await find(s, 'lentil', { to: NOW - 2 * DAY }))), new Set([inA, answerA]));
    assert.deepEqual(ids(await find(s, 'lentil', { excludeThreadId: a.id })), [inB]);
  });

  test('a query matching more than MAX_SCORED messages is ranked newest first; a long last word that common is searched whole', async () => {
    const s = fresh();
    const t = await thread(s);
    const insert = sqliteOf(s).prepare(
      "INSERT INTO messages (id, thread_id, role, content, status, created_at) VALUES (?, ?, 'user', ?, 'complete', ?)",
    );
    await s.transaction(() => {
      for (let i = 0; i < MAX_SCORED + 20; i++)
        insert.run(`m${i}`, t.id, i % 2 ? 'weather weather weather report' : 'weather', NOW - (i % 7) * DAY - i);
    });
    const hits = await find(s, 'weather');
    assert.equal(hits.length, 20);
    assert.deepEqual(
      hits.map((h) => h.createdAt),
      [...hits.map((h) => h.createdAt)].sort((a, b) => b - a),
      'newest first',
    );
    // 'weathe' as typed would merge every word starting with it; 'weather' as a whole word is
    // already common, so the results are those of the whole word.
    const rare = await message(s, t.id, 'weatherproofing the shed');
    assert.ok(!ids(await find(s, 'weather')).includes(rare));
    assert.ok(ids(await find(s, 'weatherp')).includes(rare), 'a rarer prefix still finds longer words');
  });

  test('the last word matches as a prefix, so results come as you type', async () => {
    const s = fresh();
    const t = await thread(s);
    const m = await message(s, t.id, 'We compared photosynthesis in algae');
    for (const typed of ['phot', 'photos', 'compared photo', 'algae comp']) assert.deepEqual(ids(await find(s, typed)), [m], typed);
    assert.deepEqual(ids(await find(s, 'pho')), [], 'three letters are a whole word, not a prefix');
    assert.deepEqual(ids(await find(s, 'photo compared')), [], 'only the last word is a prefix');
  });
});

test('no query is an FTS syntax error: quotes, operators, brackets, stars and any Unicode are searched as text', async () => {
  const s = fresh();
  const t = await thread(s);
  const m = await message(s, t.id, 'He said "NOT now" (twice) — c++ costs $5, 東京 🙂 near the café; a*b^c.');
  const odd = [
    '"',
    '""',
    '"NOT now"',
    'NOT',
    'now OR',
    'AND AND',
    '(twice',
    'twice)',
    'NEAR(c++ 5)',
    '*',
    'a*',
    '^c',
    'col:',
    '-said',
    '+said',
    '{x}',
    '[',
    "'",
    '\\',
    '%',
    '_',
    '東京',
    '🙂',
    'cafe',
    'Café',
    'a\u0000b',
    'x'.repeat(200),
    '\u200b',
    'ﬁ',
    '😀😀',
  ];
  for (const q of odd) await assert.doesNotReject(find(s, q), q);
  for (const q of ['"NOT now"', 'NOT', '(twice', 'c++', '$5', '東京', '🙂', 'cafe', 'Café'])
    assert.deepEqual(ids(await find(s, q)), [m], q);
});

test('the migration indexes what was stored before it', async () => {
  const dir = makeTempDir('hearth-search');
  const file = path.join(dir, 'h.db');
  // A database as it was before the search index (migrations up to 0002).
  const migrations = path.join(dir, 'migrations');
  fs.cpSync(path.join(process.cwd(), 'db/migrations'), migrations, { recursive: true });
  const journalFile = path.join(migrations, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((e) => e.tag === '0003_search_index');
  fs.writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, upTo) }));
  const before = openDatabase(file, { migrationsFolder: migrations });
  // Rows written as that schema had them (today's store knows columns it did not have).
  const t = { id: randomUUID() };
  const m = randomUUID();
  before.$client
    .prepare('INSERT INTO threads (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)')
    .run(t.id, 'Old thread about kayaks', NOW, NOW);
  before.$client
    .prepare("INSERT INTO messages (id, thread_id, role, content, status, created_at) VALUES (?, ?, 'user', ?, 'complete', ?)")
    .run(m, t.id, 'Which kayak paddle length?', NOW);
  before.$client.close();

  const s = createStore(openDatabase(file));
  assert.deepEqual(ids(await find(s, 'paddle')), [m]);
  assert.equal((await find(s, 'kayaks'))[0].kind, 'title');
  // And new rows after it keep their own entries.
  const n = await message(s, t.id, 'Another paddle question');
  assert.deepEqual(new Set(ids(await find(s, 'paddle'))), new Set([m, n]));
});

describe('as you type', () => {
  test('the last word also matches as a prefix: the word itself ranks first, completions follow newest first', async () => {
    const s = fresh();
    const t = await thread(s);
    const older = await message(s, t.id, 'The castles of the Loire are worth a week', { now: NOW - 30 * DAY });
    const newer = await message(s, t.id, 'Castlemaine is a town in Victoria', { now: NOW - 2 * DAY });
    const exact = await message(s, t.id, 'Which castle should we visit first?', { now: NOW - 300 * DAY });
    await message(s, t.id, 'Nothing to do with it');
    assert.deepEqual(ids(await find(s, 'castle')), [exact, newer, older]);
    assert.deepEqual(ids(await find(s, 'castl')), [newer, older, exact], 'a word still being typed: every completion, newest first');
    assert.deepEqual(ids(await find(s, 'cas')), [], 'under four letters a word matches whole');
  });
});

test('a message’s snippet reads as its words, not its Markdown, with the match marked there', async () => {
  const store = fresh();
  const t = await thread(store, 'Prices');
  await message(store, t.id, '**Latest on bitcoin**: see [the page](https://example.org/btc).', { role: 'assistant' });
  const [hit] = await searchLibrary(store, { query: 'bitcoin', limit: 5, now: NOW });
  assert.equal(hit.snippet, 'Latest on bitcoin: see the page.');
  assert.deepEqual(
    hit.highlights.map(([a, b]) => hit.snippet.slice(a, b)),
    ['bitcoin'],
  );
});
