import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '@/db/store';
import { freshStore, seedExchange } from '@/lib/dev/testing/store';

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

test('an upload counts its characters and lines (a final newline ends a line, it starts none)', () => {
  const s = freshStore();
  const row = upload(s, 'a', { text: 'one\ntwo\n' });
  assert.deepEqual([row.chars, row.lines, row.kind, row.messageId, row.createdAt], [8, 2, 'text', null, 1]);
  assert.equal(upload(s, 'b', { text: 'one\ntwo' }).lines, 2);
  assert.equal(upload(s, 'c', { text: 'single' }).lines, 1);
  assert.deepEqual([upload(s, 'd', { text: '' }).lines, s.attachmentFile({ id: 'd' })?.size], [0, 10]);
  const given = s.insertAttachment({
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
  const image = upload(s, 'img', { kind: 'image', width: 40 });
  assert.deepEqual([image.kind, image.width, image.height], ['image', 40, 20]);
});

test('uploads link once, to the message they were sent with', () => {
  const s = freshStore();
  const ex = seedExchange(s, { thread: 't' });
  upload(s, 'a');
  upload(s, 'b');
  assert.equal(s.linkAttachments({ ids: [], messageId: ex.user }), 0);
  assert.equal(s.linkAttachments({ ids: ['a', 'b', 'missing'], messageId: ex.user }), 2);
  assert.equal(s.linkAttachments({ ids: ['a'], messageId: ex.assistant }), 0, 'already sent with another message');
  assert.equal(s.attachmentFile({ id: 'a' })?.messageId, ex.user);
});

test('an edited question gets copies of its files: new rows, the same stored files, in their order', () => {
  const s = freshStore();
  const ex = seedExchange(s, { thread: 't' });
  s.insertMessage({
    id: 'edited',
    threadId: 't',
    turnId: null,
    parentId: null,
    role: 'user',
    content: 'Edited?',
    status: 'complete',
    now: 5,
  });
  upload(s, 'z', { now: 1, sha: 'first' });
  upload(s, 'y', { now: 2, sha: 'second' });
  s.linkAttachments({ ids: ['z', 'y'], messageId: ex.user });
  let n = 0;
  assert.equal(s.copyAttachments({ fromMessageId: ex.user, toMessageId: 'edited', newId: () => `copy${++n}`, now: 9 }), 2);
  const copies = s.attachmentsOfThreadMessages({ threadId: 't' }).filter((a) => a.messageId === 'edited');
  assert.deepEqual(copies.map((c) => [c.id, c.sha256, c.name]).sort(), [
    ['copy1', 'first', 'z.txt'],
    ['copy2', 'second', 'y.txt'],
  ]);
  assert.equal(s.attachmentOfThread({ id: 'copy1', threadId: 't' })?.text, 'one\ntwo');
  assert.equal(s.copyAttachments({ fromMessageId: 'edited-none', toMessageId: 'edited', newId: () => 'never', now: 9 }), 0);
});

test('a thread’s files: by thread only, oldest message first, each stored file once', () => {
  const s = freshStore();
  const later = seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 't2' }, { now: 20 });
  const earlier = seedExchange(s, { thread: 't', user: 'u1', assistant: 'a1', turn: 't1' }, { now: 10 });
  const other = seedExchange(s, { thread: 'o' });
  upload(s, 'late', { sha: 'same', now: 1 });
  upload(s, 'early', { sha: 'same', now: 2 });
  upload(s, 'theirs', { sha: 'theirs' });
  upload(s, 'unsent');
  s.linkAttachments({ ids: ['late'], messageId: later.user });
  s.linkAttachments({ ids: ['early'], messageId: earlier.user });
  s.linkAttachments({ ids: ['theirs'], messageId: other.user });
  assert.deepEqual(
    s.attachmentsOfThread({ threadId: 't' }).map((a) => [a.id, a.createdAt]),
    [
      ['early', 10],
      ['late', 20],
    ],
  );
  assert.deepEqual(s.fileHashesOfThread({ threadId: 't' }), ['same']);
  assert.deepEqual(
    s
      .attachmentsOfThreadMessages({ threadId: 't' })
      .map((a) => a.id)
      .sort(),
    ['early', 'late'],
  );
  assert.equal(s.attachmentOfThread({ id: 'theirs', threadId: 't' }), undefined, 'another thread’s file is unknown here');
  assert.equal(s.attachmentOfThread({ id: 'unsent', threadId: 't' }), undefined);
  const mine = s.attachmentOfThread({ id: 'early', threadId: 't' });
  assert.deepEqual([mine?.text, mine?.chars, mine?.lines, mine?.sha256], ['one\ntwo', 7, 2, 'same']);
  assert.equal(s.isFileReferenced({ sha256: 'same' }), true);
  assert.equal(s.isFileReferenced({ sha256: 'sha-unsent' }), true, 'an upload not yet sent still needs its file');
  assert.equal(s.isFileReferenced({ sha256: 'nobody' }), false);
});
