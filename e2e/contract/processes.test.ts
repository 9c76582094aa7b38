import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { startLlamaDouble, type DoubleReply, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { applyEvent, newTurnState } from '@/lib/contract/turn-state';
import { EventReader, httpCall, type Ev } from './client';
import { lastUser, newThread, scriptQuestions } from './questions';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * Two `next start` processes on one PostgreSQL database and one data folder, as behind a proxy:
 * a turn started through the first streams live through the second; the first killed with
 * SIGKILL mid-turn, the second takes the turn over once its lease lapses and finishes it, with
 * nothing lost and nothing doubled; stopped with SIGTERM, it hands the turn over at once; and
 * the model server's slots are one queue for both.
 * Runs in `npm run test:e2e`'s pass on PostgreSQL (several processes need it: SQLite's file is one process's).
 */

const skip = process.env.HEARTH_TEST_STORE_URL ? false : 'several processes share a PostgreSQL database (the e2e pass on PostgreSQL)';
/** Short, so a killed process's turn is taken over within a second or two. */
const LEASE_MS = 1000;

let double: LlamaDouble;
const servers: HearthServer[] = [];

before(async () => {
  if (skip) return;
  double = await startLlamaDouble();
});

after(async () => {
  const logs = servers.map((s) => s.stderr()).join('\n');
  await Promise.all(servers.map((s) => s.kill('SIGKILL')));
  await double?.close();
  assert.doesNotMatch(logs, /Something went wrong|⨯|TypeError|ReferenceError/, 'a server logged an unexpected error');
});

afterEach(() => double?.setScript(undefined));

async function start(dataDir?: string, leaseMs = LEASE_MS): Promise<HearthServer> {
  const server = await startHearth(
    { LLAMA_URL: double.url, MODEL_SLOTS: '1', HEARTH_TITLES: 'first-words', HEARTH_TURN_LEASE_MS: String(leaseMs) },
    { dataDir },
  );
  servers.push(server);
  return server;
}

/** Two processes on one database (the suite's server database for this data folder) and one data folder. */
async function twoProcesses(leaseMs = LEASE_MS) {
  const first = await start(undefined, leaseMs);
  const second = await start(first.dataDir, leaseMs);
  return { first, second };
}

/** Questions containing `marker` get `reply`; everything else the persona. */
const scriptFor = (marker: string, reply: (req: DoubleRequest) => DoubleReply) => scriptQuestions(double, marker, reply);

/** Starts a turn through `server` and reads its stream until the answer has begun; the turn's id. */
async function startTurn(server: HearthServer, threadId: string, content: string) {
  const res = await fetch(`${server.url}/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  assert.equal(res.status, 200);
  const reader = new EventReader(res.body!);
  await reader.until(() => reader.events.filter((e) => e.type === 'delta').length >= 3);
  const turnId = (reader.events.find((e) => e.type === 'turn') as { turnId: string }).turnId;
  return { turnId, reader };
}

/** A page attached to the turn through `server` from its first event. */
async function attach(server: HearthServer, threadId: string, turnId: string) {
  const res = await fetch(`${server.url}/api/threads/${threadId}/turns/${turnId}/events?after=0`);
  assert.equal(res.status, 200);
  return new EventReader(res.body!);
}

type ThreadView = { messages: { role: string; content: string; status: string }[]; activeTurn: { id: string } | null };
async function threadOf(server: HearthServer, id: string): Promise<ThreadView> {
  const r = await httpCall(server.url, 'GET', `/api/threads/${id}`);
  assert.equal(r.status, 200, r.text);
  return r.body as ThreadView;
}

/** Each event once, in order; what the page shows never holds the words from before the hand-over twice. */
function assertWhole(events: Ev[], turnId: string, answer: string) {
  const seqs = events.map((e) => e.seq);
  assert.deepEqual(
    seqs,
    [...new Set(seqs)].sort((a, b) => a - b),
    'each event once, in order',
  );
  assert.equal(events.filter((e) => e.type === 'done').length, 1, events.map((e) => e.type).join(','));
  let state = newTurnState(turnId);
  for (const e of events) state = applyEvent(state, e);
  assert.equal(state.final ?? state.draft, answer, 'the page shows the answer once');
}

const ANSWER = 'alpha bravo charlie delta echo foxtrot golf hotel';

describe('two Hearth processes on one database', { skip }, () => {
  test('a turn started through the first streams live through the second', async () => {
    const { first, second } = await twoProcesses();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    scriptFor('live-through', () => ({ content: ANSWER, hold: { afterTokens: 3, until: held } }));
    const threadId = await newThread(first);
    const { turnId } = await startTurn(first, threadId, 'live-through: the alphabet, please');
    const through = await attach(second, threadId, turnId);
    // The words so far reach the second while the first still holds the answer back: live, not after the fact.
    await through.until(() => through.events.filter((e) => e.type === 'delta').length >= 3);
    release();
    const events = await through.rest();
    assert.equal(events.at(-1)?.type, 'done');
    assertWhole(events, turnId, ANSWER);
    // Stopping through the second reaches the turn the first runs.
    let hold!: () => void;
    scriptFor('stop-through', () => ({ content: ANSWER, hold: { afterTokens: 3, until: new Promise<void>((r) => (hold = r)) } }));
    const stopping = await startTurn(first, threadId, 'stop-through: the alphabet again');
    const cancel = await httpCall(second.url, 'POST', `/api/threads/${threadId}/turns/${stopping.turnId}/cancel`, { json: {} });
    assert.equal(cancel.status, 202, cancel.text);
    const ended = await stopping.reader.rest();
    hold();
    assert.deepEqual(ended.at(-1), {
      type: 'error',
      code: 'cancelled',
      message: 'Stopped. The partial answer was kept.',
      seq: ended.at(-1)?.seq,
    });
  });

  test('the first killed with SIGKILL mid-turn: the second finishes the turn, nothing lost, nothing doubled', async () => {
    const { first, second } = await twoProcesses();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    scriptFor('killed', () => ({ content: ANSWER, hold: { afterTokens: 3, until: held } }));
    const threadId = await newThread(first);
    const { turnId } = await startTurn(first, threadId, 'killed: the alphabet, please');
    const through = await attach(second, threadId, turnId);
    await through.until(() => through.events.filter((e) => e.type === 'delta').length >= 3);
    scriptFor('killed', () => ({ content: ANSWER }));
    await first.kill('SIGKILL');
    release();
    const events = await through.rest();
    assert.ok(
      events.some((e) => e.type === 'status' && (e as { stage?: string }).stage === 'resumed'),
      'the page is told the turn resumed',
    );
    assertWhole(events, turnId, ANSWER);
    const thread = await threadOf(second, threadId);
    assert.deepEqual(
      thread.messages.map((m) => [m.role, m.status, m.content]),
      [
        ['user', 'complete', 'killed: the alphabet, please'],
        ['assistant', 'complete', ANSWER],
      ],
    );
    assert.equal(thread.activeTurn, null);
  });

  test('the first stopped with SIGTERM mid-turn hands the turn over at once', async () => {
    // Leases of ten minutes: only the hand-over, never a lapse, can bring the turn to the second within the test's time.
    const { first, second } = await twoProcesses(600_000);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    scriptFor('handed', () => ({ content: ANSWER, hold: { afterTokens: 3, until: held } }));
    const threadId = await newThread(first);
    const { turnId, reader } = await startTurn(first, threadId, 'handed: the alphabet, please');
    scriptFor('handed', () => ({ content: ANSWER }));
    const stopped = first.stop();
    // The page's stream through the first ends without an ending: it re-attaches, here through the second.
    const before = await reader.rest();
    assert.ok(!before.some((e) => e.type === 'done' || e.type === 'error'), before.map((e) => e.type).join(','));
    await stopped;
    release();
    const rest = await (await attach(second, threadId, turnId)).rest();
    assertWhole(rest, turnId, ANSWER);
    const thread = await threadOf(second, threadId);
    assert.deepEqual(thread.messages.at(-1) && [thread.messages.at(-1)!.status, thread.messages.at(-1)!.content], ['complete', ANSWER]);
  });

  test('the model server’s one slot is one queue for both processes: a turn through the second waits for the first’s', async () => {
    const { first, second } = await twoProcesses();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    scriptFor('slot-', (req) =>
      lastUser(req).includes('slot-held') ? { content: ANSWER, hold: { afterTokens: 3, until: held } } : { content: 'india juliet kilo' },
    );
    const running = await startTurn(first, await newThread(first), 'slot-held: the alphabet, please');
    const threadId = await newThread(second);
    const res = await fetch(`${second.url}/api/threads/${threadId}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'slot-waits: three more' }),
    });
    assert.equal(res.status, 200);
    const waiting = new EventReader(res.body!);
    await waiting.until(() => waiting.events.some((e) => e.type === 'status'));
    const queued = waiting.events.find((e) => e.type === 'status') as { stage?: string; queuePosition?: number };
    assert.deepEqual(
      [queued.stage, queued.queuePosition],
      ['queued', 1],
      'it waits first in line for the slot the other process’s turn holds',
    );
    const asked = (marker: string) => double.requests.filter((r) => JSON.stringify(r.messages).includes(marker)).length;
    assert.equal(asked('slot-waits'), 0, 'the model server was not asked for it while its one slot was taken');
    release();
    assert.equal((await running.reader.rest()).at(-1)?.type, 'done');
    const events = await waiting.rest();
    assert.equal(events.at(-1)?.type, 'done', 'then it ran');
    assert.ok(asked('slot-waits') > 0);
  });

  test('a setting changed through the first is in force through the second', async () => {
    const { first, second } = await twoProcesses();
    const nameThrough = async (server: HearthServer) =>
      ((await httpCall(server.url, 'GET', '/api/settings')).body as { settings: { assistantName: string } }).settings.assistantName;
    assert.notEqual(await nameThrough(second), 'Ember');
    const changed = await httpCall(first.url, 'PATCH', '/api/settings', { json: { assistantName: 'Ember' } });
    assert.equal(changed.status, 200, changed.text);
    // Said to the second over the database: it hears it a moment later, never a process restart later.
    let seen = '';
    for (let tries = 0; tries < 500 && seen !== 'Ember'; tries++) seen = await nameThrough(second);
    assert.equal(seen, 'Ember');
  });
});
