import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshEngineStore, seedExchange } from '@/lib/dev/testing/store';
import { decodeCursor, encodeCursor } from './threads';

/** Threads as stored: who named them, their order in the list and its pages, and what goes with one. */

test('a cursor reads back as written, and anything else reads as none', () => {
  const c = { pinned: true, updatedAt: 1234, id: 'abc' };
  assert.deepEqual(decodeCursor(encodeCursor(c)), c);
  assert.deepEqual(decodeCursor(encodeCursor({ ...c, pinned: false })), { ...c, pinned: false });
  const raw = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  assert.deepEqual(decodeCursor(raw([1, 5, 'x'])), { pinned: true, updatedAt: 5, id: 'x' });
  for (const bad of [raw([2, 5, 'x']), raw([true, 5, 'x']), raw([0, '5', 'x']), raw([0, 5, 7]), 'not base64 json', raw({})]) {
    assert.equal(decodeCursor(bad), null, bad);
  }
});

test('a title given at creation is the user’s; none is left for the model', async () => {
  const s = await freshEngineStore();
  const named = await s.createThread({ id: 'a', title: 'Trip', now: 5 });
  const untitled = await s.createThread({ id: 'b', title: '', now: 6 });
  assert.equal(named.titleSource, 'user');
  assert.equal(untitled.titleSource, 'auto');
  assert.equal(named.createdAt, 5);
  assert.equal(named.updatedAt, 5);
  assert.equal((await s.getThread({ id: 'b' }))?.title, '');
  assert.equal(await s.getThread({ id: 'missing' }), undefined);
  assert.equal(await s.countThreads(), 2);
});

test('the list: pinned first, then the most recently active, ties by id; pages follow their cursor to the end', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 'old', title: '', now: 1 });
  await s.createThread({ id: 'new', title: '', now: 3 });
  await s.createThread({ id: 'tie-a', title: '', now: 2 });
  await s.createThread({ id: 'tie-b', title: '', now: 2 });
  await s.createThread({ id: 'pinned', title: '', now: 0 });
  await s.updateThread({ id: 'pinned', patch: { pinned: true } });
  const all = await s.listThreads({ limit: 10 });
  assert.deepEqual(
    all.threads.map((t) => t.id),
    ['pinned', 'new', 'tie-b', 'tie-a', 'old'],
  );
  assert.equal(all.nextCursor, null);

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: Awaited<ReturnType<typeof s.listThreads>> = await s.listThreads({
      limit: 2,
      cursor: cursor ? (decodeCursor(cursor) ?? undefined) : undefined,
    });
    seen.push(...page.threads.map((t) => t.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 10);
  assert.deepEqual(seen, ['pinned', 'new', 'tie-b', 'tie-a', 'old']);
  assert.equal(pages, 3);
  const byThree = await s.listThreads({ limit: 3 });
  const rest = await s.listThreads({ limit: 3, cursor: decodeCursor(byThree.nextCursor ?? '') ?? undefined });
  assert.deepEqual(
    rest.threads.map((t) => t.id),
    ['tie-a', 'old'],
    'the next page starts after the last of the page',
  );
  assert.equal((await s.listThreads({ limit: 5 })).nextCursor, null, 'exactly a page: no next one');
  assert.notEqual((await s.listThreads({ limit: 4 })).nextCursor, null);
});

test('renaming makes the title the user’s; pinning or a system prompt does not; none is activity', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 'a', title: '', now: 1 });
  const pinned = await s.updateThread({ id: 'a', patch: { pinned: true, systemPrompt: 'Be brief.' } });
  assert.equal(pinned?.titleSource, 'auto');
  assert.equal(pinned?.pinned, true);
  assert.equal(pinned?.systemPrompt, 'Be brief.');
  assert.equal(pinned?.updatedAt, 1, 'a setting is not activity');
  const renamed = await s.updateThread({ id: 'a', patch: { title: 'Mine' } });
  assert.equal(renamed?.titleSource, 'user');
  assert.equal(renamed?.title, 'Mine');
  assert.equal(renamed?.pinned, true, 'what the patch leaves out stays');
  assert.equal(renamed?.updatedAt, 1, 'a rename keeps the thread where it was in the list');
  assert.equal(await s.updateThread({ id: 'missing', patch: { title: 'x' } }), undefined);
  await s.touchThread({ id: 'a', now: 9 });
  assert.equal((await s.getThread({ id: 'a' }))?.updatedAt, 9);
});

test('the model’s title lands only on a thread nobody named, and moves nothing in the list', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 'auto', title: '', now: 1 });
  await s.createThread({ id: 'user', title: 'Mine', now: 1 });
  assert.equal(await s.setModelTitle({ id: 'auto', title: 'Sourdough' }), true);
  assert.equal(await s.setModelTitle({ id: 'user', title: 'Sourdough' }), false);
  assert.equal(await s.setModelTitle({ id: 'missing', title: 'Sourdough' }), false);
  assert.deepEqual(
    [
      (await s.getThread({ id: 'auto' }))?.title,
      (await s.getThread({ id: 'auto' }))?.titleSource,
      (await s.getThread({ id: 'auto' }))?.updatedAt,
    ],
    ['Sourdough', 'model', 1],
  );
  assert.equal((await s.getThread({ id: 'user' }))?.title, 'Mine');
  assert.equal(await s.setModelTitle({ id: 'auto', title: 'Again' }), false, 'a model title is not replaced by another');
});

test('a first message titles only an untitled thread', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 'a', title: '', now: 1 });
  await s.createThread({ id: 'b', title: 'Kept', now: 1 });
  await s.titleIfUntitled({ id: 'a', title: 'From the message' });
  await s.titleIfUntitled({ id: 'b', title: 'From the message' });
  assert.equal((await s.getThread({ id: 'a' }))?.title, 'From the message');
  assert.equal((await s.getThread({ id: 'b' }))?.title, 'Kept');
});

test('deleting a thread takes its messages, turns and the attachments sent in it, and nothing of another thread', async () => {
  const s = await freshEngineStore();
  const gone = await seedExchange(s, { thread: 'gone' });
  const kept = await seedExchange(s, { thread: 'kept' });
  for (const [id, messageId] of [
    ['f1', gone.user],
    ['f2', kept.user],
  ]) {
    await s.insertAttachment({ id, name: `${id}.txt`, mime: 'text/plain', size: 3, sha256: `sha-${id}`, text: 'abc', now: 1 });
    await s.linkAttachments({ ids: [id], messageId });
  }
  await s.insertAttachment({ id: 'loose', name: 'loose.txt', mime: 'text/plain', size: 3, sha256: 'sha-loose', text: 'abc', now: 1 });
  assert.equal(await s.deleteThread({ id: 'gone' }), true);
  assert.equal(await s.deleteThread({ id: 'gone' }), false, 'a second delete finds nothing');
  assert.equal(await s.getThread({ id: 'gone' }), undefined);
  assert.equal(await s.getMessage({ id: gone.user }), undefined);
  assert.equal(await s.getTurn({ id: gone.turn }), undefined);
  assert.equal(await s.attachmentFile({ id: 'f1' }), undefined);
  assert.ok(await s.attachmentFile({ id: 'f2' }), 'another thread’s file stays');
  assert.ok(await s.attachmentFile({ id: 'loose' }), 'an upload not yet sent stays');
  assert.ok(await s.getMessage({ id: kept.user }));
  assert.equal(await s.countThreads(), 1);
});
