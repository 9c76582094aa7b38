import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshEngineStore, seedExchange } from '@/lib/dev/testing/store';
import type { Store } from '@/db/store';
import { isForeignKeyFailure } from '@/lib/shared/errors';

/** The whole-library reads and writes behind export and import (lib/services/library), on real databases. */

/** A thread with everything a thread can hold: two exchanges, a turn's log, a tool call, decisions, a file. */
async function richThread(s: Store, id = 'th') {
  await s.createThread({ id, title: 'Trip', now: 100 });
  await seedExchange(
    s,
    { thread: id, user: 'u1', assistant: 'a1', turn: 't1' },
    { now: 100, question: 'Weather in Lyon?', answer: 'Sunny.' },
  );
  await seedExchange(s, { thread: id, user: 'u2', assistant: 'a2', turn: 't2' }, { now: 200, question: 'And tomorrow?', answer: 'Rain.' });
  await s.setTurnStatus({
    id: 't1',
    status: 'done',
    stats: { rounds: 2, modelCalls: 3, toolCalls: 1, compiled: true, tokensPerSecond: 41.5 },
    now: 150,
  });
  await s.appendEvent({ turnId: 't1', seq: 2, type: 'delta', data: { text: 'Sunny.' }, now: 120 });
  await s.appendEvent({ turnId: 't1', seq: 1, type: 'status', data: { status: 'running' }, now: 110 });
  await s.appendStep({ turnId: 't1', seq: 1, kind: 'tool', data: { name: 'web_search' }, now: 111 });
  await s.insertToolCall({
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
  await s.appendDecisions({
    layerId: 'hearth',
    scope: 'execution',
    scopeKey: 't1',
    turnId: 't1',
    threadId: id,
    maxRecords: 50,
    records: [{ stepId: 'verdict', at: 113, modelId: 'm', source: 'native', answers: { verdict: { value: 'answer', p: 0.9 } } as never }],
  });
  await s.insertAttachment({
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
  await s.linkAttachments({ ids: ['f1'], messageId: 'u1' });
}

test('a thread read from one library and written into another reads back the same, row for row', async () => {
  const from = await freshEngineStore();
  await richThread(from);
  const rows = await from.threadRows('th');
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

  const to = await freshEngineStore();
  assert.equal(await to.importThread(rows.thread), true);
  for (const m of rows.messages) assert.equal(await to.importMessage(m), true, m.id);
  for (const t of rows.turns) assert.equal(await to.importTurn(t), true, t.id);
  for (const e of rows.turnEvents) assert.equal(await to.importTurnEvent(e), true);
  for (const c of rows.toolCalls) assert.equal(await to.importToolCall(c), true);
  for (const a of rows.attachments) assert.equal(await to.importAttachment(a), true);
  for (const { id: _id, ...d } of rows.decisions) assert.deepEqual(await to.importDecision(d), { id: 1, added: true });
  assert.deepEqual(await to.threadRows('th'), rows);

  // The same file again: every row is there, nothing is added or changed.
  assert.equal(await to.importThread({ ...rows.thread, title: 'Renamed' }), false);
  for (const m of rows.messages) assert.equal(await to.importMessage({ ...m, content: 'changed' }), false);
  for (const t of rows.turns) assert.equal(await to.importTurn(t), false);
  for (const e of rows.turnEvents) assert.equal(await to.importTurnEvent(e), false);
  for (const c of rows.toolCalls) assert.equal(await to.importToolCall(c), false);
  for (const a of rows.attachments) assert.equal(await to.importAttachment(a), false);
  for (const { id: _id, ...d } of rows.decisions) assert.deepEqual(await to.importDecision(d), { id: 1, added: false });
  assert.deepEqual(await to.threadRows('th'), rows);
});

test('a row pointing at a thread that is not there is refused (foreign keys are on)', async () => {
  const s = await freshEngineStore();
  await assert.rejects(
    async () =>
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
    (err) => isForeignKeyFailure(err),
  );
  assert.equal(await s.threadRows('nowhere'), undefined);
});

test('a memory already known under another id or another case is not imported again', async () => {
  const s = await freshEngineStore();
  assert.equal(await s.importMemory({ id: 'm1', text: 'Lives in Lyon', created_at: 1, updated_at: 1 }), true);
  assert.equal(await s.importMemory({ id: 'm2', text: 'LIVES IN LYON', created_at: 2, updated_at: 2 }), false);
  assert.equal(
    await s.importMemory({ id: 'm1', text: 'Something else', created_at: 3, updated_at: 3 }),
    false,
    'the same id is the same row',
  );
  assert.equal(await s.importMemory({ id: 'm3', text: 'Lives in Lyons', created_at: 4, updated_at: 4 }), true);
  assert.deepEqual(await s.memoryRows(), [
    { id: 'm1', text: 'Lives in Lyon', created_at: 1, updated_at: 1 },
    { id: 'm3', text: 'Lives in Lyons', created_at: 4, updated_at: 4 },
  ]);
});

test('a decision is found by what it is: layer, scope, key, turn (or none), step and time; any of them differing is another', async () => {
  const s = await freshEngineStore();
  await seedExchange(s, { thread: 'th', turn: 't1' });
  await seedExchange(s, { thread: 'th', user: 'u9', assistant: 'a9', turn: 't9' }, { now: 2000 });
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
  assert.deepEqual(await s.importDecision(base), { id: 1, added: true });
  assert.deepEqual(
    await s.importDecision({ ...base, model_id: 'other', answers: '{"x":1}' }),
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
  for (const [i, v] of variants.entries())
    assert.deepEqual(await s.importDecision({ ...base, ...v }), { id: i + 2, added: true }, JSON.stringify(v));
  assert.deepEqual(await s.importDecision({ ...base, turn_id: 't1' }), { id: 5, added: false }, 'a turn id matches itself');
  assert.deepEqual(await s.importDecision({ ...base, turn_id: 't9' }), { id: 8, added: true }, 'and no other turn');
  assert.deepEqual(
    (await s.looseDecisionRows()).map((d) => d.id),
    [1, 2, 3, 4, 5, 6, 7, 8],
    'none of them belongs to a thread',
  );
});

test('loose decisions are those of no thread; a thread’s own come with its rows', async () => {
  const s = await freshEngineStore();
  await seedExchange(s, { thread: 'th', turn: 't1' });
  const rec = (stepId: string) => [{ stepId, at: 1, modelId: 'm', source: 'native' as const, answers: {} }];
  await s.appendDecisions({
    layerId: 'hearth',
    scope: 'execution',
    scopeKey: 't1',
    turnId: 't1',
    threadId: 'th',
    maxRecords: 9,
    records: rec('of-thread'),
  });
  await s.appendDecisions({
    layerId: 'hearth',
    scope: 'resource',
    scopeKey: 'web',
    turnId: null,
    threadId: null,
    maxRecords: 9,
    records: rec('loose'),
  });
  assert.deepEqual(
    (await s.looseDecisionRows()).map((d) => d.step_id),
    ['loose'],
  );
  assert.deepEqual(
    (await s.threadRows('th'))?.decisions.map((d) => d.step_id),
    ['of-thread'],
  );
});

test('the library’s threads oldest first (ties by id), and what is known of ids, messages, turns and files', async () => {
  const s = await freshEngineStore();
  await s.createThread({ id: 'b', title: '', now: 5 });
  await s.createThread({ id: 'c', title: '', now: 1 });
  await s.createThread({ id: 'a', title: '', now: 5 });
  assert.deepEqual(await s.libraryThreadIds(), ['c', 'a', 'b']);
  await seedExchange(s, { thread: 'a', user: 'qa', turn: 'ta' });
  await seedExchange(s, { thread: 'b', user: 'qb', turn: 'tb' });
  assert.equal(await s.threadExists('a'), true);
  assert.equal(await s.threadExists('z'), false);
  assert.equal(await s.messageOfThread('qa', 'a'), true);
  assert.equal(await s.messageOfThread('qa', 'b'), false, 'a message of another thread');
  assert.equal(await s.turnThread('tb'), 'b');
  assert.equal(await s.turnThread('nope'), undefined);
  await s.insertAttachment({
    id: 'f',
    name: 'r.md',
    mime: 'text/markdown',
    size: 3,
    sha256: 'h1',
    text: '# R',
    chars: 3,
    lines: 1,
    now: 1,
  });
  assert.deepEqual(await s.attachmentByHash('h1'), { text: '# R', kind: 'text', chars: 3, lines: 1 });
  assert.equal(await s.attachmentByHash('h2'), undefined);
});

test('a thread’s rows hold only its own: another thread’s messages, turns, logs, calls and files stay out', async () => {
  const s = await freshEngineStore();
  await richThread(s, 'th');
  await s.createThread({ id: 'other', title: 'Other', now: 300 });
  await seedExchange(s, { thread: 'other', user: 'ou', assistant: 'oa', turn: 'ot' }, { now: 300 });
  await s.appendEvent({ turnId: 'ot', seq: 1, type: 'status', data: {}, now: 301 });
  await s.appendStep({ turnId: 'ot', seq: 1, kind: 'tool', data: {}, now: 301 });
  await s.insertToolCall({
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
  await s.insertAttachment({ id: 'f2', name: 'o.txt', mime: 'text/plain', size: 1, sha256: 'o', text: 'o', now: 303 });
  await s.linkAttachments({ ids: ['f2'], messageId: 'ou' });
  const rows = await s.threadRows('th');
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
