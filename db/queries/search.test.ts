import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshStore } from '@/lib/dev/testing/store';
import type { Store } from '@/db/store';

/** A match of whole words. */
const words = (...w: string[]) => ({ words: w, anyWord: false, prefix: false });

/** The full-text index's queries on a real database (the ranking and snippets above them: lib/data/search). */

const DAY = 24 * 3600 * 1000;

async function message(s: Store, id: string, content: string, now: number, threadId = 'th', role: 'user' | 'assistant' = 'user') {
  if (!(await s.getThread({ id: threadId }))) await s.createThread({ id: threadId, title: '', now: 0 });
  await s.insertMessage({ id, threadId, turnId: null, parentId: null, role, content, status: 'complete', now });
}

test('an equal match loses half its weight in 182 days: the recency half-life, by hand', async () => {
  const s = freshStore();
  const now = 1000 * DAY;
  await message(s, 'new', 'kestrel sighting', now);
  await message(s, 'old', 'kestrel sighting', now - 182 * DAY);
  const hits = await s.searchIndex({ match: words('kestrel'), limit: 10, now });
  assert.deepEqual(
    hits.map((h) => h.refId),
    ['new', 'old'],
    'bm25 scores are negative: lower is better',
  );
  const [fresh, aged] = hits.map((h) => h.score);
  assert.ok(fresh < 0, `a scored hit has a bm25 score (${fresh})`);
  assert.ok(Math.abs(fresh / aged - 2) < 1e-9, `half the weight: ${fresh} / ${aged}`);
});

test('an empty filter is no filter; each filter narrows', async () => {
  const s = freshStore();
  await message(s, 'a', 'otter', 10, 'one', 'user');
  await message(s, 'b', 'otter', 20, 'two', 'assistant');
  const ids = async (filters: Parameters<Store['searchIndex']>[0]['filters']) =>
    (await s.searchIndex({ match: words('otter'), filters, limit: 10, now: 30 })).map((h) => h.refId).sort();
  assert.deepEqual(await ids({ threadId: '' }), ['a', 'b']);
  assert.deepEqual(await ids({ excludeThreadId: '' }), ['a', 'b']);
  assert.deepEqual(await ids({ threadId: 'one' }), ['a']);
  assert.deepEqual(await ids({ excludeThreadId: 'one' }), ['b']);
  assert.deepEqual(await ids({ role: 'assistant' }), ['b']);
  assert.deepEqual(await ids({ from: 20 }), ['b'], 'from is inclusive');
  assert.deepEqual(await ids({ to: 20 }), ['a'], 'to is exclusive');
});

test('up to 500 matches are ranked by bm25; from 501 on, the newest 500 by time alone', async () => {
  const s = freshStore();
  // Written first (the lowest rowid, the last the backwards walk reaches) but dated latest.
  await message(s, 'late', 'heron', 10_000);
  for (let i = 1; i < 500; i++) await message(s, `m${i}`, 'heron', i);
  const scored = await s.searchIndex({ match: words('heron'), limit: 1000, now: 10_000 });
  assert.equal(scored.length, 500);
  assert.ok(
    scored.every((h) => h.score < 0),
    'each of 500 matches is scored',
  );

  await message(s, 'm500', 'heron', 500);
  const byTime = await s.searchIndex({ match: words('heron'), limit: 1000, now: 10_000 });
  assert.equal(byTime.length, 500, 'the newest 500 written');
  assert.ok(
    byTime.every((h) => h.score === 0),
    'none scored',
  );
  assert.ok(!byTime.some((h) => h.refId === 'late'), 'the first written is past the 500 newest');
  assert.deepEqual(
    byTime.slice(0, 3).map((h) => h.refId),
    ['m500', 'm499', 'm498'],
    'newest first',
  );
  assert.deepEqual(
    (await s.searchIndex({ match: words('heron'), limit: 2, now: 10_000 })).map((h) => h.refId),
    ['m500', 'm499'],
    'then cut to the limit',
  );
});

test('the text behind hits: none asked, none read; each kind by its ids', async () => {
  const s = freshStore();
  assert.deepEqual(await s.searchSources({ messageIds: [], attachmentIds: [], threadIds: [] }), {
    messages: [],
    attachments: [],
    threads: [],
  });
  await s.createThread({ id: 'th', title: 'Birds', now: 1 });
  await message(s, 'q', 'About herons', 2);
  await s.insertAttachment({ id: 'f', name: 'birds.txt', mime: 'text/plain', size: 5, sha256: 'x', text: 'heron', now: 3 });
  await s.linkAttachments({ ids: ['f'], messageId: 'q' });
  assert.deepEqual(await s.searchSources({ messageIds: ['q', 'missing'], attachmentIds: ['f'], threadIds: ['th'] }), {
    messages: [{ id: 'q', threadId: 'th', role: 'user', content: 'About herons', turnId: null }],
    attachments: [{ id: 'f', name: 'birds.txt', text: 'heron', messageId: 'q' }],
    threads: [{ id: 'th', title: 'Birds' }],
  });
});

test('newest matches: the last written first, cut to the limit, filters applied', async () => {
  const s = freshStore();
  await message(s, 'a', 'wren', 3, 'one');
  await message(s, 'b', 'wren', 1, 'two');
  await message(s, 'c', 'wren', 2, 'one');
  assert.deepEqual(
    (await s.newestMatches({ match: words('wren'), limit: 2 })).map((h) => h.refId),
    ['c', 'b'],
  );
  assert.deepEqual(
    (await s.newestMatches({ match: words('wren'), filters: { threadId: 'one' }, limit: 5 })).map((h) => h.refId),
    ['c', 'a'],
  );
});
