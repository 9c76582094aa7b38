import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshEngineStore, seedExchange } from '@/lib/dev/testing/store';

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

test('a message reads back as written, and an update changes only what it names', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 't', title: '', now: 1 });
  const m = await s.insertMessage({
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
  await s.updateMessage({ id: 'm', content: 'Half an ans' });
  assert.equal((await s.getMessage({ id: 'm' }))?.status, 'streaming', 'status untouched');
  await s.updateMessage({ id: 'm', status: 'error', errorCode: 'model_error' });
  assert.deepEqual(
    [(await s.getMessage({ id: 'm' }))?.content, (await s.getMessage({ id: 'm' }))?.status, (await s.getMessage({ id: 'm' }))?.errorCode],
    ['Half an ans', 'error', 'model_error'],
  );
  await s.setContextBlock({ id: 'm', contextBlock: 'Memory: likes tea' });
  assert.equal((await s.getMessage({ id: 'm' }))?.contextBlock, 'Memory: likes tea');
  assert.equal(await s.getMessage({ id: 'missing' }), undefined);
});

test('a deleted memory line leaves every stored context block, and only that whole line', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 't', title: '', now: 1 });
  const block = async (id: string, contextBlock: string) => {
    await s.insertMessage({ id, threadId: 't', turnId: null, parentId: null, role: 'user', content: 'q', status: 'complete', now: 1 });
    await s.setContextBlock({ id, contextBlock });
  };
  await block('a', 'Time: noon\n- likes tea\n- likes tea cakes');
  await block('b', '- likes tea');
  await block('c', 'Time: noon');
  await s.scrubContextLine({ line: '- likes tea' });
  assert.equal((await s.getMessage({ id: 'a' }))?.contextBlock, 'Time: noon\n- likes tea cakes');
  assert.equal((await s.getMessage({ id: 'b' }))?.contextBlock, '');
  assert.equal((await s.getMessage({ id: 'c' }))?.contextBlock, 'Time: noon');
});

test('a thread’s messages: oldest first; at the same moment the answer after its question, then by id', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 't', title: '', now: 1 });
  await s.createThread({ id: 'other', title: '', now: 1 });
  const add = (id: string, role: 'user' | 'assistant', now: number, threadId = 't') =>
    s.insertMessage({ id, threadId, turnId: null, parentId: null, role, content: id, status: 'complete', now });
  await add('late', 'user', 9);
  await add('z-user', 'user', 5);
  await add('answer', 'assistant', 5);
  await add('a-user', 'user', 5);
  await add('elsewhere', 'user', 1, 'other');
  assert.deepEqual(
    (await s.listMessages({ threadId: 't' })).map((m) => m.id),
    ['answer', 'a-user', 'z-user', 'late'],
  );
});

test('the branch a thread shows is its leaf, which can be cleared', async () => {
  const s = await freshEngineStore();
  const { assistant } = await seedExchange(s, { thread: 't' });
  await s.setCurrentLeaf({ threadId: 't', leafId: assistant });
  assert.equal((await s.getThread({ id: 't' }))?.currentLeafId, assistant);
  await s.setCurrentLeaf({ threadId: 't', leafId: null });
  assert.equal((await s.getThread({ id: 't' }))?.currentLeafId, null);
});

test('deleting messages takes their turns with tool calls and decisions, and their attachments; returns each file once', async () => {
  const s = await freshEngineStore();
  const first = await seedExchange(s, { thread: 't', user: 'u1', assistant: 'a1', turn: 't1' }, { now: 1 });
  const second = await seedExchange(s, { thread: 't', user: 'u2', assistant: 'a2', turn: 't2' }, { now: 10 });
  const elsewhere = await seedExchange(s, { thread: 'o', user: 'ou', assistant: 'oa', turn: 'ot' });
  await s.insertToolCall(toolCall('t2:c1', 't2', 't', 11));
  await s.insertToolCall(toolCall('t1:c1', 't1', 't', 2));
  await s.appendDecisions({
    layerId: 'l',
    scope: 'thread',
    scopeKey: 't',
    records: [{ stepId: 'verdict', at: 11, modelId: 'm', source: 'native', answers: {} }],
    maxRecords: 10,
    turnId: 't2',
    threadId: 't',
  });
  await s.appendDecisions({
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
    await s.insertAttachment({ id, name: id, mime: 'text/plain', size: 1, sha256: sha, text: 'x', now: 1 });
    await s.linkAttachments({ ids: [id], messageId });
  }
  assert.deepEqual(await s.deleteMessages({ threadId: 't', ids: [] }), []);
  const files = await s.deleteMessages({ threadId: 't', ids: [second.user, second.assistant, elsewhere.user] });
  assert.deepEqual(files.sort(), ['other', 'same']);
  assert.equal(await s.getMessage({ id: 'u2' }), undefined);
  assert.equal(await s.getMessage({ id: 'a2' }), undefined);
  assert.equal(await s.getTurn({ id: 't2' }), undefined);
  assert.ok(await s.getMessage({ id: elsewhere.user }), 'an id of another thread is not this thread’s to delete');
  assert.ok(await s.getTurn({ id: elsewhere.turn }));
  assert.deepEqual(
    (await s.listToolCallsForThread({ threadId: 't' })).map((c) => c.id),
    ['t1:c1'],
  );
  assert.deepEqual(
    (await s.decisionsOfThread({ threadId: 't', layerId: 'l' })).map((d) => d.turnId),
    [first.turn],
  );
  assert.equal(await s.attachmentFile({ id: 'f1' }), undefined);
  assert.ok(await s.attachmentFile({ id: 'f4' }));
  assert.ok(await s.getTurn({ id: first.turn }));
});

test('a turn’s answer alone deleted takes the turn with it', async () => {
  const s = await freshEngineStore();
  const ex = await seedExchange(s, { thread: 't' });
  await s.deleteMessages({ threadId: 't', ids: [ex.assistant] });
  assert.equal(await s.getTurn({ id: ex.turn }), undefined);
  assert.ok(await s.getMessage({ id: ex.user }));
});

test('tool calls: oldest first, a repeated id stored once', async () => {
  const s = await freshEngineStore();
  const ex = await seedExchange(s, { thread: 't' });
  await s.insertToolCall(toolCall('b', ex.turn, 't', 2));
  await s.insertToolCall(toolCall('a', ex.turn, 't', 3));
  await s.insertToolCall({ ...toolCall('b', ex.turn, 't', 9), name: 'fetch_url' });
  const calls = await s.listToolCallsForThread({ threadId: 't' });
  assert.deepEqual(
    calls.map((c) => [c.id, c.name]),
    [
      ['b', 'web_search'],
      ['a', 'web_search'],
    ],
  );
  assert.deepEqual(await s.listToolCallsForThread({ threadId: 'other' }), []);
});

test('the exchange of a turn: its question and its answer, oldest first; none for an unknown turn', async () => {
  const s = await freshEngineStore();
  const ex = await seedExchange(s, { thread: 't' }, { question: 'Why?', answer: 'Because.' });
  assert.deepEqual(
    (await s.exchangeOf({ turnId: ex.turn })).map((m) => m.content),
    ['Why?', 'Because.'],
  );
  assert.deepEqual(await s.exchangeOf({ turnId: 'missing' }), []);
});
