import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshStore, seedExchange } from '@/lib/dev/testing/store';
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

test('a title given at creation is the user’s; none is left for the model', () => {
  const s = freshStore();
  const named = s.createThread({ id: 'a', title: 'Trip', now: 5 });
  const untitled = s.createThread({ id: 'b', title: '', now: 6 });
  assert.equal(named.titleSource, 'user');
  assert.equal(untitled.titleSource, 'auto');
  assert.equal(named.createdAt, 5);
  assert.equal(named.updatedAt, 5);
  assert.equal(s.getThread({ id: 'b' })?.title, '');
  assert.equal(s.getThread({ id: 'missing' }), undefined);
  assert.equal(s.countThreads(), 2);
});

test('the list: pinned first, then the most recently active, ties by id; pages follow their cursor to the end', () => {
  const s = freshStore();
  s.createThread({ id: 'old', title: '', now: 1 });
  s.createThread({ id: 'new', title: '', now: 3 });
  s.createThread({ id: 'tie-a', title: '', now: 2 });
  s.createThread({ id: 'tie-b', title: '', now: 2 });
  s.createThread({ id: 'pinned', title: '', now: 0 });
  s.updateThread({ id: 'pinned', patch: { pinned: true } });
  const all = s.listThreads({ limit: 10 });
  assert.deepEqual(
    all.threads.map((t) => t.id),
    ['pinned', 'new', 'tie-b', 'tie-a', 'old'],
  );
  assert.equal(all.nextCursor, null);

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: ReturnType<typeof s.listThreads> = s.listThreads({
      limit: 2,
      cursor: cursor ? (decodeCursor(cursor) ?? undefined) : undefined,
    });
    seen.push(...page.threads.map((t) => t.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 10);
  assert.deepEqual(seen, ['pinned', 'new', 'tie-b', 'tie-a', 'old']);
  assert.equal(pages, 3);
  const byThree = s.listThreads({ limit: 3 });
  const rest = s.listThreads({ limit: 3, cursor: decodeCursor(byThree.nextCursor ?? '') ?? undefined });
  assert.deepEqual(
    rest.threads.map((t) => t.id),
    ['tie-a', 'old'],
    'the next page starts after the last of the page',
  );
  assert.equal(s.listThreads({ limit: 5 }).nextCursor, null, 'exactly a page: no next one');
  assert.notEqual(s.listThreads({ limit: 4 }).nextCursor, null);
});

test('renaming makes the title the user’s; pinning or a system prompt does not; none is activity', () => {
  const s = freshStore();
  s.createThread({ id: 'a', title: '', now: 1 });
  const pinned = s.updateThread({ id: 'a', patch: { pinned: true, systemPrompt: 'Be brief.' } });
  assert.equal(pinned?.titleSource, 'auto');
  assert.equal(pinned?.pinned, true);
  assert.equal(pinned?.systemPrompt, 'Be brief.');
  assert.equal(pinned?.updatedAt, 1, 'a setting is not activity');
  const renamed = s.updateThread({ id: 'a', patch: { title: 'Mine' } });
  assert.equal(renamed?.titleSource, 'user');
  assert.equal(renamed?.title, 'Mine');
  assert.equal(renamed?.pinned, true, 'what the patch leaves out stays');
  assert.equal(renamed?.updatedAt, 1, 'a rename keeps the thread where it was in the list');
  assert.equal(s.updateThread({ id: 'missing', patch: { title: 'x' } }), undefined);
  s.touchThread({ id: 'a', now: 9 });
  assert.equal(s.getThread({ id: 'a' })?.updatedAt, 9);
});

test('the model’s title lands only on a thread nobody named, and moves nothing in the list', () => {
  const s = freshStore();
  s.createThread({ id: 'auto', title: '', now: 1 });
  s.createThread({ id: 'user', title: 'Mine', now: 1 });
  assert.equal(s.setModelTitle({ id: 'auto', title: 'Sourdough' }), true);
  assert.equal(s.setModelTitle({ id: 'user', title: 'Sourdough' }), false);
  assert.equal(s.setModelTitle({ id: 'missing', title: 'Sourdough' }), false);
  assert.deepEqual(
    [s.getThread({ id: 'auto' })?.title, s.getThread({ id: 'auto' })?.titleSource, s.getThread({ id: 'auto' })?.updatedAt],
    ['Sourdough', 'model', 1],
  );
  assert.equal(s.getThread({ id: 'user' })?.title, 'Mine');
  assert.equal(s.setModelTitle({ id: 'auto', title: 'Again' }), false, 'a model title is not replaced by another');
});

test('a first message titles only an untitled thread', () => {
  const s = freshStore();
  s.createThread({ id: 'a', title: '', now: 1 });
  s.createThread({ id: 'b', title: 'Kept', now: 1 });
  s.titleIfUntitled({ id: 'a', title: 'From the message' });
  s.titleIfUntitled({ id: 'b', title: 'From the message' });
  assert.equal(s.getThread({ id: 'a' })?.title, 'From the message');
  assert.equal(s.getThread({ id: 'b' })?.title, 'Kept');
});

test('deleting a thread takes its messages, turns and the attachments sent in it, and nothing of another thread', () => {
  const s = freshStore();
  const gone = seedExchange(s, { thread: 'gone' });
  const kept = seedExchange(s, { thread: 'kept' });
  for (const [id, messageId] of [
    ['f1', gone.user],
    ['f2', kept.user],
  ]) {
    s.insertAttachment({ id, name: `${id}.txt`, mime: 'text/plain', size: 3, sha256: `sha-${id}`, text: 'abc', now: 1 });
    s.linkAttachments({ ids: [id], messageId });
  }
  s.insertAttachment({ id: 'loose', name: 'loose.txt', mime: 'text/plain', size: 3, sha256: 'sha-loose', text: 'abc', now: 1 });
  assert.equal(s.deleteThread({ id: 'gone' }), true);
  assert.equal(s.deleteThread({ id: 'gone' }), false, 'a second delete finds nothing');
  assert.equal(s.getThread({ id: 'gone' }), undefined);
  assert.equal(s.getMessage({ id: gone.user }), undefined);
  assert.equal(s.getTurn({ id: gone.turn }), undefined);
  assert.equal(s.attachmentFile({ id: 'f1' }), undefined);
  assert.ok(s.attachmentFile({ id: 'f2' }), 'another thread’s file stays');
  assert.ok(s.attachmentFile({ id: 'loose' }), 'an upload not yet sent stays');
  assert.ok(s.getMessage({ id: kept.user }));
  assert.equal(s.countThreads(), 1);
});
