import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '@/db/store';
import { freshEngineStore, seedExchange } from '@/lib/dev/testing/store';

/** Attachments as stored: their counted text, the message they were sent with, and the threads they belong to. */

const upload = (s: Store, id: string, opts: { sha?: string; text?: string; now?: number; kind?: 'text' | 'image'; width?: number } = {}) =>
  s.insertAttachment({
    id,
    name: `${id}.txt`,
    mime: 'text/plain',
    size: 10,
    sha256: opts.sha ?? `sha-${id}`,
    text: opts.text ?? 'one\ntwo',
    now: opts.now ?? 1,
    ...(opts.kind ? { kind: opts.kind } : {}),
    ...(opts.width ? { width: opts.width, height: 20 } : {}),
  });

test('an upload counts its characters and lines (a final newline ends a line, it starts none)', async () => {
  const s = await freshEngineStore();
  const row = await upload(s, 'a', { text: 'one\ntwo\n' });
  assert.deepEqual([row.chars, row.lines, row.kind, row.messageId, row.createdAt], [8, 2, 'text', null, 1]);
  assert.equal((await upload(s, 'b', { text: 'one\ntwo' })).lines, 2);
  assert.equal((await upload(s, 'c', { text: 'single' })).lines, 1);
  assert.deepEqual([(await upload(s, 'd', { text: '' })).lines, (await s.attachmentFile({ id: 'd' }))?.size], [0, 10]);
  const given = await s.insertAttachment({
    id: 'e',
    name: 'e.pdf',
    mime: 'application/pdf',
    size: 99,
    sha256: 'x',
    text: 'short',
    chars: 5000,
    lines: 300,
    now: 2,
  });
  assert.deepEqual([given.chars, given.lines], [5000, 300], 'counts given (a document’s whole text) are kept');
  const image = await upload(s, 'img', { kind: 'image', width: 40 });
  assert.deepEqual([image.kind, image.width, image.height], ['image', 40, 20]);
});

test('uploads link once, to the message they were sent with', async () => {
  const s = await freshEngineStore();
  const ex = await seedExchange(s, { thread: 't' });
  await upload(s, 'a');
  await upload(s, 'b');
  assert.equal(await s.linkAttachments({ ids: [], messageId: ex.user }), 0);
  assert.equal(await s.linkAttachments({ ids: ['a', 'b', 'missing'], messageId: ex.user }), 2);
  assert.equal(await s.linkAttachments({ ids: ['a'], messageId: ex.assistant }), 0, 'already sent with another message');
  assert.equal((await s.attachmentFile({ id: 'a' }))?.messageId, ex.user);
});

test('an edited question gets copies of its files: new rows, the same stored files, in their order', async () => {
  const s = await freshEngineStore();
  const ex = await seedExchange(s, { thread: 't' });
  await s.insertMessage({
    id: 'edited',
    threadId: 't',
    turnId: null,
    parentId: null,
    role: 'user',
    content: 'Edited?',
    status: 'complete',
    now: 5,
  });
  await upload(s, 'z', { now: 1, sha: 'first' });
  await upload(s, 'y', { now: 2, sha: 'second' });
  await s.linkAttachments({ ids: ['z', 'y'], messageId: ex.user });
  let n = 0;
  assert.equal(await s.copyAttachments({ fromMessageId: ex.user, toMessageId: 'edited', newId: () => `copy${++n}`, now: 9 }), 2);
  const copies = (await s.attachmentsOfThreadMessages({ threadId: 't' })).filter((a) => a.messageId === 'edited');
  assert.deepEqual(copies.map((c) => [c.id, c.sha256, c.name]).sort(), [
    ['copy1', 'first', 'z.txt'],
    ['copy2', 'second', 'y.txt'],
  ]);
  assert.equal((await s.attachmentOfThread({ id: 'copy1', threadId: 't' }))?.text, 'one\ntwo');
  assert.equal(await s.copyAttachments({ fromMessageId: 'edited-none', toMessageId: 'edited', newId: () => 'never', now: 9 }), 0);
});

test('a thread’s files: by thread only, oldest message first, each stored file once', async () => {
  const s = await freshEngineStore();
  const later = await seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 't2' }, { now: 20 });
  const earlier = await seedExchange(s, { thread: 't', user: 'u1', assistant: 'a1', turn: 't1' }, { now: 10 });
  const other = await seedExchange(s, { thread: 'o' });
  await upload(s, 'late', { sha: 'same', now: 1 });
  await upload(s, 'early', { sha: 'same', now: 2 });
  await upload(s, 'theirs', { sha: 'theirs' });
  await upload(s, 'unsent');
  await s.linkAttachments({ ids: ['late'], messageId: later.user });
  await s.linkAttachments({ ids: ['early'], messageId: earlier.user });
  await s.linkAttachments({ ids: ['theirs'], messageId: other.user });
  assert.deepEqual(
    (await s.attachmentsOfThread({ threadId: 't' })).map((a) => [a.id, a.createdAt]),
    [
      ['early', 10],
      ['late', 20],
    ],
  );
  assert.deepEqual(await s.fileHashesOfThread({ threadId: 't' }), ['same']);
  assert.deepEqual((await s.attachmentsOfThreadMessages({ threadId: 't' })).map((a) => a.id).sort(), ['early', 'late']);
  assert.equal(await s.attachmentOfThread({ id: 'theirs', threadId: 't' }), undefined, 'another thread’s file is unknown here');
  assert.equal(await s.attachmentOfThread({ id: 'unsent', threadId: 't' }), undefined);
  const mine = await s.attachmentOfThread({ id: 'early', threadId: 't' });
  assert.deepEqual([mine?.text, mine?.chars, mine?.lines, mine?.sha256], ['one\ntwo', 7, 2, 'same']);
  assert.equal(await s.isFileReferenced({ sha256: 'same' }), true);
  assert.equal(await s.isFileReferenced({ sha256: 'sha-unsent' }), true, 'an upload not yet sent still needs its file');
  assert.equal(await s.isFileReferenced({ sha256: 'nobody' }), false);
});
