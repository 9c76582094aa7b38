import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshStore, seedExchange } from '@/lib/dev/testing/store';

/** Messages as stored: their order, their context blocks, their branch, and what deleting some takes with them. */

const toolCall = (id: string, turnId: string, threadId: string, createdAt: number) => ({
  id,
  turnId,
  threadId,
  name: 'web_search',
  arguments: '{"query":"x"}',
  ok: true,
  result: '{"results":[]}',
  ms: 5,
  createdAt,
});

test('a message reads back as written, and an update changes only what it names', () => {
  const s = freshStore();
  s.createThread({ id: 't', title: '', now: 1 });
  const m = s.insertMessage({
    id: 'm',
    threadId: 't',
    turnId: null,
    parentId: null,
    role: 'assistant',
    content: '',
    status: 'streaming',
    now: 7,
  });
  assert.deepEqual(
    [m.id, m.threadId, m.turnId, m.parentId, m.role, m.content, m.status, m.createdAt, m.errorCode, m.contextBlock],
    ['m', 't', null, null, 'assistant', '', 'streaming', 7, null, null],
  );
  s.updateMessage({ id: 'm', content: 'Half an ans' });
  assert.equal(s.getMessage({ id: 'm' })?.status, 'streaming', 'status untouched');
  s.updateMessage({ id: 'm', status: 'error', errorCode: 'model_error' });
  assert.deepEqual(
    [s.getMessage({ id: 'm' })?.content, s.getMessage({ id: 'm' })?.status, s.getMessage({ id: 'm' })?.errorCode],
    ['Half an ans', 'error', 'model_error'],
  );
  s.setContextBlock({ id: 'm', contextBlock: 'Memory: likes tea' });
  assert.equal(s.getMessage({ id: 'm' })?.contextBlock, 'Memory: likes tea');
  assert.equal(s.getMessage({ id: 'missing' }), undefined);
});

test('a deleted memory line leaves every stored context block, and only that whole line', () => {
  const s = freshStore();
  s.createThread({ id: 't', title: '', now: 1 });
  const block = (id: string, contextBlock: string) => {
    s.insertMessage({ id, threadId: 't', turnId: null, parentId: null, role: 'user', content: 'q', status: 'complete', now: 1 });
    s.setContextBlock({ id, contextBlock });
  };
  block('a', 'Time: noon\n- likes tea\n- likes tea cakes');
  block('b', '- likes tea');
  block('c', 'Time: noon');
  s.scrubContextLine({ line: '- likes tea' });
  assert.equal(s.getMessage({ id: 'a' })?.contextBlock, 'Time: noon\n- likes tea cakes');
  assert.equal(s.getMessage({ id: 'b' })?.contextBlock, '');
  assert.equal(s.getMessage({ id: 'c' })?.contextBlock, 'Time: noon');
});

test('a thread’s messages: oldest first; at the same moment the answer after its question, then by id', () => {
  const s = freshStore();
  s.createThread({ id: 't', title: '', now: 1 });
  s.createThread({ id: 'other', title: '', now: 1 });
  const add = (id: string, role: 'user' | 'assistant', now: number, threadId = 't') =>
    s.insertMessage({ id, threadId, turnId: null, parentId: null, role, content: id, status: 'complete', now });
  add('late', 'user', 9);
  add('z-user', 'user', 5);
  add('answer', 'assistant', 5);
  add('a-user', 'user', 5);
  add('elsewhere', 'user', 1, 'other');
  assert.deepEqual(
    s.listMessages({ threadId: 't' }).map((m) => m.id),
    ['answer', 'a-user', 'z-user', 'late'],
  );
});

test('the branch a thread shows is its leaf, which can be cleared', () => {
  const s = freshStore();
  const { assistant } = seedExchange(s, { thread: 't' });
  s.setCurrentLeaf({ threadId: 't', leafId: assistant });
  assert.equal(s.getThread({ id: 't' })?.currentLeafId, assistant);
  s.setCurrentLeaf({ threadId: 't', leafId: null });
  assert.equal(s.getThread({ id: 't' })?.currentLeafId, null);
});

test('deleting messages takes their turns with tool calls and decisions, and their attachments; returns each file once', () => {
  const s = freshStore();
  const first = seedExchange(s, { thread: 't', user: 'u1', assistant: 'a1', turn: 't1' }, { now: 1 });
  const second = seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 't2' }, { now: 10 });
  const elsewhere = seedExchange(s, { thread: 'o', user: 'ou', assistant: 'oa', turn: 'ot' });
  s.insertToolCall(toolCall('t2:c1', 't2', 't', 11));
  s.insertToolCall(toolCall('t1:c1', 't1', 't', 2));
  s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 't',
    records: [{ stepId: 'verdict', at: 11, modelId: 'm', source: 'native', answers: {} }],
    maxRecords: 10,
    turnId: 't2',
    threadId: 't',
  });
  s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 't',
    records: [{ stepId: 'verdict', at: 2, modelId: 'm', source: 'native', answers: {} }],
    maxRecords: 10,
    turnId: 't1',
    threadId: 't',
  });
  for (const [id, messageId, sha] of [
    ['f1', 'u2', 'same'],
    ['f2', 'u2', 'same'],
    ['f3', 'u2', 'other'],
    ['f4', 'u1', 'kept'],
  ]) {
    s.insertAttachment({ id, name: id, mime: 'text/plain', size: 1, sha256: sha, text: 'x', now: 1 });
    s.linkAttachments({ ids: [id], messageId });
  }
  assert.deepEqual(s.deleteMessages({ threadId: 't', ids: [] }), []);
  const files = s.deleteMessages({ threadId: 't', ids: [second.user, second.assistant, elsewhere.user] });
  assert.deepEqual(files.sort(), ['other', 'same']);
  assert.equal(s.getMessage({ id: 'u2' }), undefined);
  assert.equal(s.getMessage({ id: 'a2' }), undefined);
  assert.equal(s.getTurn({ id: 't2' }), undefined);
  assert.ok(s.getMessage({ id: elsewhere.user }), 'an id of another thread is not this thread’s to delete');
  assert.ok(s.getTurn({ id: elsewhere.turn }));
  assert.deepEqual(
    s.listToolCallsForThread({ threadId: 't' }).map((c) => c.id),
    ['t1:c1'],
  );
  assert.deepEqual(
    s.decisionsOfThread({ threadId: 't', layerId: 'l' }).map((d) => d.turnId),
    [first.turn],
  );
  assert.equal(s.attachmentFile({ id: 'f1' }), undefined);
  assert.ok(s.attachmentFile({ id: 'f4' }));
  assert.ok(s.getTurn({ id: first.turn }));
});

test('a turn’s answer alone deleted takes the turn with it', () => {
  const s = freshStore();
  const ex = seedExchange(s, { thread: 't' });
  s.deleteMessages({ threadId: 't', ids: [ex.assistant] });
  assert.equal(s.getTurn({ id: ex.turn }), undefined);
  assert.ok(s.getMessage({ id: ex.user }));
});

test('tool calls: oldest first, a repeated id stored once', () => {
  const s = freshStore();
  const ex = seedExchange(s, { thread: 't' });
  s.insertToolCall(toolCall('b', ex.turn, 't', 2));
  s.insertToolCall(toolCall('a', ex.turn, 't', 3));
  s.insertToolCall({ ...toolCall('b', ex.turn, 't', 9), name: 'fetch_url' });
  const calls = s.listToolCallsForThread({ threadId: 't' });
  assert.deepEqual(
    calls.map((c) => [c.id, c.name]),
    [
      ['b', 'web_search'],
      ['a', 'web_search'],
    ],
  );
  assert.deepEqual(s.listToolCallsForThread({ threadId: 'other' }), []);
});

test('the exchange of a turn: its question and its answer, oldest first; none for an unknown turn', () => {
  const s = freshStore();
  const ex = seedExchange(s, { thread: 't' }, { question: 'Why?', answer: 'Because.' });
  assert.deepEqual(
    s.exchangeOf({ turnId: ex.turn }).map((m) => m.content),
    ['Why?', 'Because.'],
  );
  assert.deepEqual(s.exchangeOf({ turnId: 'missing' }), []);
});
