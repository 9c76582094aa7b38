import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshStore, seedExchange } from '@/lib/dev/testing/store';
import type { Store } from '@/db/store';

/** The whole-library reads and writes behind export and import (lib/services/library), on real databases. */

/** A thread with everything a thread can hold: two exchanges, a turn's log, a tool call, decisions, a file. */
function richThread(s: Store, id = 'th') {
  s.createThread({ id, title: 'Trip', now: 100 });
  seedExchange(s, { thread: id, user: 'u1', assistant: 'a1', turn: 't1' }, { now: 100, question: 'Weather in Lyon?', answer: 'Sunny.' });
  seedExchange(s, { thread: id, user: 'u2', assistant: 'a2', turn: 't2' }, { now: 200, question: 'And tomorrow?', answer: 'Rain.' });
  s.setTurnStatus({
    id: 't1',
    status: 'done',
    stats: { rounds: 2, modelCalls: 3, toolCalls: 1, compiled: true, tokensPerSecond: 41.5 },
    now: 150,
  });
  s.appendEvent({ turnId: 't1', seq: 2, type: 'delta', data: { text: 'Sunny.' }, now: 120 });
  s.appendEvent({ turnId: 't1', seq: 1, type: 'status', data: { status: 'running' }, now: 110 });
  s.appendStep({ turnId: 't1', seq: 1, kind: 'tool', data: { name: 'web_search' }, now: 111 });
  s.insertToolCall({
    id: 't1:c1',
    turnId: 't1',
    threadId: id,
    name: 'web_search',
    arguments: '{"query":"Lyon weather"}',
    ok: true,
    result: '"sunny"',
    repeat: false,
    ms: 30,
    createdAt: 112,
  });
  s.appendDecisions({
    layerId: 'hearth',
    scope: 'execution',
    scopeKey: 't1',
    turnId: 't1',
    threadId: id,
    maxRecords: 50,
    records: [{ stepId: 'verdict', at: 113, modelId: 'm', source: 'native', answers: { verdict: { value: 'answer', p: 0.9 } } as never }],
  });
  s.insertAttachment({
    id: 'f1',
    name: 'notes.txt',
    mime: 'text/plain',
    size: 5,
    sha256: 'abc',
    text: 'hello',
    chars: 5,
    lines: 1,
    now: 101,
  });
  s.linkAttachments({ ids: ['f1'], messageId: 'u1' });
}

test('a thread read from one library and written into another reads back the same, row for row', () => {
  const from = freshStore();
  richThread(from);
  const rows = from.threadRows('th');
  assert.ok(rows, 'the thread is there');
  assert.deepEqual(
    rows.messages.map((m) => m.id),
    ['u1', 'a1', 'u2', 'a2'],
  );
  assert.deepEqual(
    rows.turnEvents.map((e) => e.seq),
    [1, 2],
    'a turn’s log in order of its numbers, not of writing',
  );
  assert.deepEqual(rows.turns[0].stats, {
    rounds: 2,
    modelCalls: 3,
    toolCalls: 1,
    gateNudges: 0,
    promptTokens: 0,
    completionTokens: 0,
    fuelUsed: 0,
    ms: 0,
    modelMs: 0,
    compiled: true,
    tokensPerSecond: 41.5,
  });
  assert.equal(rows.turns[1].stats, null, 'a turn without figures has none');
  assert.equal(rows.attachments[0].message_id, 'u1');
  assert.equal(rows.toolCalls[0].arguments, '{"query":"Lyon weather"}');

  const to = freshStore();
  assert.equal(to.importThread(rows.thread), true);
  for (const m of rows.messages) assert.equal(to.importMessage(m), true, m.id);
  for (const t of rows.turns) assert.equal(to.importTurn(t), true, t.id);
  for (const e of rows.turnEvents) assert.equal(to.importTurnEvent(e), true);
  for (const c of rows.toolCalls) assert.equal(to.importToolCall(c), true);
  for (const a of rows.attachments) assert.equal(to.importAttachment(a), true);
  for (const { id: _id, ...d } of rows.decisions) assert.deepEqual(to.importDecision(d), { id: 1, added: true });
  assert.deepEqual(to.threadRows('th'), rows);

  // The same file again: every row is there, nothing is added or changed.
  assert.equal(to.importThread({ ...rows.thread, title: 'Renamed' }), false);
  for (const m of rows.messages) assert.equal(to.importMessage({ ...m, content: 'changed' }), false);
  for (const t of rows.turns) assert.equal(to.importTurn(t), false);
  for (const e of rows.turnEvents) assert.equal(to.importTurnEvent(e), false);
  for (const c of rows.toolCalls) assert.equal(to.importToolCall(c), false);
  for (const a of rows.attachments) assert.equal(to.importAttachment(a), false);
  for (const { id: _id, ...d } of rows.decisions) assert.deepEqual(to.importDecision(d), { id: 1, added: false });
  assert.deepEqual(to.threadRows('th'), rows);
});

test('a row pointing at a thread that is not there is refused (foreign keys are on)', () => {
  const s = freshStore();
  assert.throws(
    () =>
      s.importMessage({
        id: 'm',
        thread_id: 'nowhere',
        turn_id: null,
        role: 'user',
        content: 'x',
        status: 'complete',
        error_code: null,
        context_block: null,
        created_at: 1,
      }),
    /FOREIGN KEY/,
  );
  assert.equal(s.threadRows('nowhere'), undefined);
});

test('a memory already known under another id or another case is not imported again', () => {
  const s = freshStore();
  assert.equal(s.importMemory({ id: 'm1', text: 'Lives in Lyon', created_at: 1, updated_at: 1 }), true);
  assert.equal(s.importMemory({ id: 'm2', text: 'LIVES IN LYON', created_at: 2, updated_at: 2 }), false);
  assert.equal(s.importMemory({ id: 'm1', text: 'Something else', created_at: 3, updated_at: 3 }), false, 'the same id is the same row');
  assert.equal(s.importMemory({ id: 'm3', text: 'Lives in Lyons', created_at: 4, updated_at: 4 }), true);
  assert.deepEqual(s.memoryRows(), [
    { id: 'm1', text: 'Lives in Lyon', created_at: 1, updated_at: 1 },
    { id: 'm3', text: 'Lives in Lyons', created_at: 4, updated_at: 4 },
  ]);
});

test('a decision is found by what it is: layer, scope, key, turn (or none), step and time; any of them differing is another', () => {
  const s = freshStore();
  seedExchange(s, { thread: 'th', turn: 't1' });
  seedExchange(s, { thread: 'th', user: 'u9', assistant: 'a9', turn: 't9' }, { now: 2000 });
  const base = {
    layer_id: 'hearth',
    scope: 'thread',
    scope_key: 'th',
    turn_id: null as string | null,
    thread_id: null as string | null,
    step_id: 'freshness',
    at: 10,
    model_id: 'm',
    source: 'native',
    answers: '{}',
  };
  assert.deepEqual(s.importDecision(base), { id: 1, added: true });
  assert.deepEqual(
    s.importDecision({ ...base, model_id: 'other', answers: '{"x":1}' }),
    { id: 1, added: false },
    'the model and answers do not name it',
  );
  const variants = [
    { layer_id: 'other' },
    { scope: 'execution' },
    { scope_key: 'th2' },
    { turn_id: 't1' },
    { step_id: 'verdict' },
    { at: 11 },
  ];
  variants.forEach((v, i) => assert.deepEqual(s.importDecision({ ...base, ...v }), { id: i + 2, added: true }, JSON.stringify(v)));
  assert.deepEqual(s.importDecision({ ...base, turn_id: 't1' }), { id: 5, added: false }, 'a turn id matches itself');
  assert.deepEqual(s.importDecision({ ...base, turn_id: 't9' }), { id: 8, added: true }, 'and no other turn');
  assert.deepEqual(
    s.looseDecisionRows().map((d) => d.id),
    [1, 2, 3, 4, 5, 6, 7, 8],
    'none of them belongs to a thread',
  );
});

test('loose decisions are those of no thread; a thread’s own come with its rows', () => {
  const s = freshStore();
  seedExchange(s, { thread: 'th', turn: 't1' });
  const rec = (stepId: string) => [{ stepId, at: 1, modelId: 'm', source: 'native' as const, answers: {} }];
  s.appendDecisions({
    layerId: 'hearth',
    scope: 'execution',
    scopeKey: 't1',
    turnId: 't1',
    threadId: 'th',
    maxRecords: 9,
    records: rec('of-thread'),
  });
  s.appendDecisions({
    layerId: 'hearth',
    scope: 'resource',
    scopeKey: 'web',
    turnId: null,
    threadId: null,
    maxRecords: 9,
    records: rec('loose'),
  });
  assert.deepEqual(
    s.looseDecisionRows().map((d) => d.step_id),
    ['loose'],
  );
  assert.deepEqual(
    s.threadRows('th')?.decisions.map((d) => d.step_id),
    ['of-thread'],
  );
});

test('the library’s threads oldest first (ties by id), and what is known of ids, messages, turns and files', () => {
  const s = freshStore();
  s.createThread({ id: 'b', title: '', now: 5 });
  s.createThread({ id: 'c', title: '', now: 1 });
  s.createThread({ id: 'a', title: '', now: 5 });
  assert.deepEqual(s.libraryThreadIds(), ['c', 'a', 'b']);
  seedExchange(s, { thread: 'a', user: 'qa', turn: 'ta' });
  seedExchange(s, { thread: 'b', user: 'qb', turn: 'tb' });
  assert.equal(s.threadExists('a'), true);
  assert.equal(s.threadExists('z'), false);
  assert.equal(s.messageOfThread('qa', 'a'), true);
  assert.equal(s.messageOfThread('qa', 'b'), false, 'a message of another thread');
  assert.equal(s.turnThread('tb'), 'b');
  assert.equal(s.turnThread('nope'), undefined);
  s.insertAttachment({ id: 'f', name: 'r.md', mime: 'text/markdown', size: 3, sha256: 'h1', text: '# R', chars: 3, lines: 1, now: 1 });
  assert.deepEqual(s.attachmentByHash('h1'), { text: '# R', kind: 'text', chars: 3, lines: 1 });
  assert.equal(s.attachmentByHash('h2'), undefined);
});

test('a thread’s rows hold only its own: another thread’s messages, turns, logs, calls and files stay out', () => {
  const s = freshStore();
  richThread(s, 'th');
  s.createThread({ id: 'other', title: 'Other', now: 300 });
  seedExchange(s, { thread: 'other', user: 'ou', assistant: 'oa', turn: 'ot' }, { now: 300 });
  s.appendEvent({ turnId: 'ot', seq: 1, type: 'status', data: {}, now: 301 });
  s.appendStep({ turnId: 'ot', seq: 1, kind: 'tool', data: {}, now: 301 });
  s.insertToolCall({
    id: 'ot:c',
    turnId: 'ot',
    threadId: 'other',
    name: 'now',
    arguments: '{}',
    ok: true,
    result: '1',
    repeat: false,
    ms: 1,
    createdAt: 302,
  });
  s.insertAttachment({ id: 'f2', name: 'o.txt', mime: 'text/plain', size: 1, sha256: 'o', text: 'o', now: 303 });
  s.linkAttachments({ ids: ['f2'], messageId: 'ou' });
  const rows = s.threadRows('th');
  assert.ok(rows, 'the thread is there');
  assert.deepEqual(
    {
      messages: rows.messages.map((m) => m.id),
      turns: rows.turns.map((t) => t.id),
      events: rows.turnEvents.map((e) => e.turn_id),
      calls: rows.toolCalls.map((c) => c.id),
      files: rows.attachments.map((a) => a.id),
    },
    { messages: ['u1', 'a1', 'u2', 'a2'], turns: ['t1', 't2'], events: ['t1', 't1'], calls: ['t1:c1'], files: ['f1'] },
  );
});
