import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { wordMatch } from '@/lib/data/search/query';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { openDatabase } from '../client';
import { createStore, type Store } from '../store';
import { copyInstallation, placeOf } from './copy';
import { libraryOptions } from './migrate';
import { pgSearchQueries, tsQuery } from './search';
import { skipWithoutPostgres, withTestDatabase } from './testing';
import { sqliteOf } from '@/lib/dev/testing/store';

test('a match as a tsquery: each word a parameter, never syntax; the last one a prefix when asked; all or any', () => {
  assert.deepEqual(tsQuery(wordMatch('sourdough starter')!, 1), {
    sql: "(phraseto_tsquery('hearth_words', $1) && to_tsquery('hearth_words', $2))",
    params: ['sourdough', "'starter':*"],
  });
  assert.deepEqual(tsQuery(wordMatch('pasta tomato', { anyWord: true, prefix: false })!, 3), {
    sql: "(phraseto_tsquery('hearth_words', $3) || phraseto_tsquery('hearth_words', $4))",
    params: ['pasta', 'tomato'],
  });
  assert.deepEqual(tsQuery({ words: ["it's\\x"], anyWord: false, prefix: true }, 1).params, ["'it''s\\\\x':*"]);
});

const DAY = 24 * 3600 * 1000;
const NOW = 1_765_000_000_000;

/** A library in several languages, with every kind of hit and enough rows of one word to be ranked by recency alone. */
async function fill(s: Store) {
  const message = async (
    id: string,
    thread: string,
    role: 'user' | 'assistant',
    content: string,
    at: number,
    status: 'complete' | 'streaming' = 'complete',
  ) => {
    if (!(await s.getThread({ id: thread }))) await s.createThread({ id: thread, title: '', now: at });
    await s.insertMessage({ id, threadId: thread, turnId: null, parentId: null, role, content, status, now: at });
  };
  await s.createThread({ id: 'fr', title: 'Voyage à Zürich', now: NOW - 300 * DAY });
  await message('fr1', 'fr', 'user', 'Où manger une crème brûlée près de la gare de Zürich?', NOW - 300 * DAY);
  await message('fr2', 'fr', 'assistant', 'La crème brûlée du Café Odéon est célèbre.', NOW - 299 * DAY);
  await s.createThread({ id: 'de', title: 'Backen', now: NOW - 10 * DAY });
  await message('de1', 'de', 'user', 'Wie backe ich Brötchen? Die Bäckerei Müller macht gute Brötchen.', NOW - 10 * DAY);
  await message('de2', 'de', 'assistant', 'Brötchen brauchen Hefe, Mehl, Wasser und Salz.', NOW - 10 * DAY + 1);
  await message('de3', 'de', 'assistant', 'Brötchen — half written', NOW - 9 * DAY, 'streaming');
  await s.createThread({ id: 'ja', title: '東京 旅行', now: NOW - 5 * DAY });
  await message('ja1', 'ja', 'user', '東京 ラーメン おすすめ', NOW - 5 * DAY);
  await s.createThread({ id: 'en', title: 'Sourdough', now: NOW - DAY });
  await message('en1', 'en', 'user', 'My sourdough starter smells of acetone; is the starter dead?', NOW - DAY);
  await message('en2', 'en', 'assistant', 'A starter that smells of acetone is hungry, not dead: feed it.', NOW - DAY + 1);
  await message('en3', 'en', 'assistant', 'Sourdough starters recover after two feedings.', NOW - DAY + 2);
  await message(
    'en4',
    'en',
    'user',
    'Notes at https://github.com/hearth/issues, in os.path.join and C:\\bread\\v2.txt; pi is 3.14',
    NOW - DAY + 3,
  );
  await s.insertAttachment({
    id: 'at1',
    name: 'recette-crème.txt',
    mime: 'text/plain',
    size: 9,
    sha256: 'x',
    text: 'Crème pâtissière',
    chars: 16,
    lines: 1,
    now: NOW - 299 * DAY,
  });
  await s.linkAttachments({ ids: ['at1'], messageId: 'fr1' });
  await s.insertTurn({ id: 'tu', threadId: 'en', userMessageId: 'en1', assistantMessageId: 'en2', now: NOW - DAY });
  sqliteOf(s)
    .prepare('update turns set events = ? where id = ?')
    .run(JSON.stringify([[1, { type: 'thinking', text: 'Acetone means the starter wants flour.' }]]), 'tu');
  for (let i = 0; i < 520; i++) await message(`many${i}`, 'bulk', i % 2 ? 'user' : 'assistant', `lantern number ${i}`, NOW - 100 * DAY + i);
}

const keys = (hits: { kind: string; refId: string }[]) => hits.map((h) => `${h.kind}:${h.refId}`);

describe('history search on PostgreSQL', { skip: skipWithoutPostgres }, () => {
  test('finds what SQLite finds: the same query syntax, languages, filters, prefixes; ranked by match and recency', async () => {
    const dir = makeTempDir('hearth-pg-search');
    const lite = createStore(openDatabase(path.join(dir, 'hearth.db')));
    await fill(lite);
    await withTestDatabase(async (url) => {
      await copyInstallation(placeOf(dir), placeOf(url));
      const pool = new pg.Pool({ connectionString: url, options: libraryOptions('hearth') });
      const there = pgSearchQueries(pool);
      try {
        const asked: [string, { anyWord?: boolean; prefix?: boolean }, Parameters<Store['searchIndex']>[0]['filters']][] = [
          ['creme brulee', {}, {}],
          ['CRÈME', { prefix: false }, {}],
          ['zurich', { prefix: false }, {}],
          ['brotchen', { prefix: false }, {}],
          ['bäckerei müller', { prefix: false }, {}],
          ['東京', { prefix: false }, {}],
          ['starter acetone', { prefix: false }, { thinking: true }],
          ['starter acetone', { prefix: false }, {}],
          ['starter acetone', { prefix: false }, { role: 'assistant' }],
          ['starter', { prefix: false }, { from: NOW - DAY + 1, to: NOW }],
          ['starter', { prefix: false }, { excludeThreadId: 'en' }],
          ['starter sourd', {}, {}],
          ['sourdough acetone', { anyWord: true, prefix: false }, {}],
          ['patissiere', { prefix: false }, { threadId: 'fr' }],
          ['half written', { prefix: false }, {}],
          ['github', { prefix: false }, {}],
          ['join', { prefix: false }, {}],
          ['14', { prefix: false }, {}],
          ['bread v2 txt', { prefix: false }, {}],
          ['"NOT" (OR) *', { prefix: false }, {}],
        ];
        let answered = 0;
        for (const [query, options, filters] of asked) {
          const match = wordMatch(query, options)!;
          const here = await lite.searchIndex({ match, filters, limit: 50, now: NOW });
          const found = await there.searchIndex({ match, filters, limit: 50, now: NOW });
          assert.deepEqual(keys(found).sort(), keys(here).sort(), `${query} ${JSON.stringify({ options, filters })}`);
          if (here.length > 0) answered++;
          const newest = await lite.newestMatches({ match, filters, limit: 50 });
          assert.deepEqual(keys(await there.newestMatches({ match, filters, limit: 50 })).sort(), keys(newest).sort(), query);
        }
        assert.equal(answered, asked.length - 3, 'all but three queries find something (the test asks real questions)');
        const prefix = wordMatch('sourd')!;
        assert.deepEqual(keys(await there.newestMatches({ match: prefix, limit: 10 })).sort(), ['message:en1', 'message:en3', 'title:en']);

        // Ranked: three mentions before one; of equal matches the newer first; past MAX_SCORED, the newest first.
        const acetone = await there.searchIndex({ match: wordMatch('starter', { prefix: false })!, limit: 10, now: NOW });
        assert.equal(acetone[0].refId, 'en1', 'the message with "starter" twice leads');
        const lanterns = await there.searchIndex({ match: wordMatch('lantern', { prefix: false })!, limit: 3, now: NOW });
        assert.deepEqual(keys(lanterns), ['message:many519', 'message:many518', 'message:many517']);
        assert.deepEqual(
          keys(lanterns),
          keys(await lite.searchIndex({ match: wordMatch('lantern', { prefix: false })!, limit: 3, now: NOW })),
          'SQLite too',
        );

        const sources = await there.searchSources({ messageIds: ['en1'], attachmentIds: ['at1'], threadIds: ['fr'], turnIds: ['tu'] });
        assert.deepEqual(
          sources,
          await lite.searchSources({ messageIds: ['en1'], attachmentIds: ['at1'], threadIds: ['fr'], turnIds: ['tu'] }),
        );
      } finally {
        await pool.end();
        lite.db.$client.close();
      }
    });
  });
});
