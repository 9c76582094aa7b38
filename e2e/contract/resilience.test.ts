import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { searxResults } from '@/e2e/double/searxng-double';
import { startLlamaDouble, type DoubleReply, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { applyEvent, newTurnState } from '@/lib/contract/turn-state';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { assertError, EventReader, httpCall, type Ev } from './client';
import { newThread, scriptQuestions } from './questions';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * Crashes and a full disk, against the production server: Hearth killed with SIGKILL while
 * it streams and while a tool runs, then started again on the same data; the model server
 * dying mid-answer; the database reaching its size limit (SQLITE_FULL). After each, the
 * thread is whole, the turn finished or is marked with its partial answer, and SQLite finds
 * the file consistent.
 */

let double: LlamaDouble;
let searx: http.Server;
let searxUrl = '';
/** Search queries containing this wait until `releaseSearch` is called. */
const HELD_QUERY = 'crash-tool';
let searchArrived!: () => void;
const searchSeen = new Promise<void>((r) => (searchArrived = r));
let releaseSearch!: () => void;
const searchHeld = new Promise<void>((r) => (releaseSearch = r));
const servers: HearthServer[] = [];

before(async () => {
  double = await startLlamaDouble();
  searx = http.createServer(async (req, res) => {
    const q = new URL(req.url ?? '/', 'http://searx').searchParams.get('q') ?? '';
    if (q.includes(HELD_QUERY)) {
      searchArrived();
      await searchHeld;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(searxResults(q)));
  });
  await new Promise<void>((resolve) => searx.listen(0, '127.0.0.1', resolve));
  searxUrl = `http://127.0.0.1:${(searx.address() as AddressInfo).port}`;
});

after(async () => {
  const logs = servers.map((s) => s.stderr()).join('\n');
  await Promise.all(servers.map((s) => s.stop()));
  releaseSearch();
  await double?.close();
  searx.closeAllConnections();
  await new Promise<void>((resolve) => searx.close(() => resolve()));
  assert.doesNotMatch(logs, /Something went wrong|⨯|TypeError|ReferenceError/, 'a server logged an unexpected error');
});

// A test that scripts the double leaves it as it found it, even when it fails.
afterEach(() => double?.setScript(undefined));

async function start(env: Record<string, string> = {}, dataDir?: string): Promise<HearthServer> {
  const server = await startHearth(
    { LLAMA_URL: double.url, SEARXNG_URL: searxUrl, MODEL_SLOTS: '1', MODEL_TIMEOUT_MS: '20000', HEARTH_TITLES: 'first-words', ...env },
    { dataDir },
  );
  servers.push(server);
  return server;
}

/** Questions containing `marker` get `reply`; everything else the persona. */
const scriptFor = (marker: string, reply: (req: DoubleRequest) => DoubleReply) => scriptQuestions(double, marker, reply);

async function post(server: HearthServer, threadId: string, content: string) {
  const res = await fetch(`${server.url}/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  return res;
}

type ThreadView = {
  messages: { id: string; role: string; content: string; status: string; errorCode: string | null }[];
  activeTurn: { id: string } | null;
};

async function threadOf(server: HearthServer, id: string): Promise<ThreadView> {
  const r = await httpCall(server.url, 'GET', `/api/threads/${id}`);
  assert.equal(r.status, 200, r.text);
  return r.body as ThreadView;
}

/** Every event of a turn from the first, following it live until it ends. */
async function allEvents(server: HearthServer, threadId: string, turnId: string): Promise<Ev[]> {
  const res = await fetch(`${server.url}/api/threads/${threadId}/turns/${turnId}/events?after=0`);
  assert.equal(res.status, 200);
  return new EventReader(res.body!).rest();
}

/** SQLite's integrity and foreign-key checks on the live file (WAL lets a reader in beside the server). */
function assertConsistent(dataDir: string) {
  const db = new Database(path.join(dataDir, 'hearth.db'), { readonly: true });
  try {
    assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
    assert.deepEqual(db.pragma('foreign_key_check'), []);
  } finally {
    db.close();
  }
}

/**
 * What the user sees of the answer as events arrive, at every step: it must never show the
 * words from before the crash twice (a resumed turn starts its text again, so the page clears it).
 */
function assertNoRepeatedPrefix(events: Ev[], prefix: string, turnId: string) {
  let state = newTurnState(turnId);
  for (const e of events) {
    state = applyEvent(state, e);
    const visible = state.final ?? state.draft;
    const first = visible.indexOf(prefix);
    assert.ok(first === -1 || visible.indexOf(prefix, first + 1) === -1, `the visible text repeats "${prefix}": ${visible}`);
  }
}

describe('SIGKILL mid-turn', () => {
  test('while the answer streams: after a restart the turn resumes, the text does not repeat, nothing is lost', async () => {
    const answer = 'alpha bravo charlie delta echo foxtrot golf hotel';
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    scriptFor('crash-stream', () => ({ content: answer, hold: { afterTokens: 3, until: held } }));
    const first = await start();
    const threadId = await newThread(first);
    const res = await post(first, threadId, 'crash-stream: tell me the alphabet');
    assert.equal(res.status, 200);
    const reader = new EventReader(res.body!);
    await reader.until(() => reader.events.filter((e) => e.type === 'delta').length >= 3);
    const before = reader.events
      .filter((e) => e.type === 'delta')
      .map((e) => (e as { text: string }).text)
      .join('');
    const turnId =
      (reader.events.find((e) => e.type === 'turn') as { turnId?: string } | undefined)?.turnId ??
      (await threadOf(first, threadId)).activeTurn!.id;
    await first.kill('SIGKILL');
    release();
    scriptFor('crash-stream', () => ({ content: answer }));

    const second = await start({}, first.dataDir);
    const events = await allEvents(second, threadId, turnId);
    assert.equal(events.at(-1)?.type, 'done', events.map((e) => e.type).join(','));
    assert.ok(
      events.some((e) => e.type === 'status' && (e as { stage?: string }).stage === 'resumed'),
      'the page is told the turn resumed',
    );
    const seqs = events.map((e) => e.seq);
    assert.deepEqual(
      seqs,
      [...seqs].sort((a, b) => a - b),
      'events in order',
    );
    assert.equal(new Set(seqs).size, seqs.length, 'no event twice');
    assertNoRepeatedPrefix(events, before.trim(), turnId);
    const thread = await threadOf(second, threadId);
    assert.deepEqual(
      thread.messages.map((m) => [m.role, m.status, m.content]),
      [
        ['user', 'complete', 'crash-stream: tell me the alphabet'],
        ['assistant', 'complete', answer],
      ],
    );
    assertConsistent(second.dataDir);
    await second.stop();
  });

  test('while a tool runs: after a restart the model call that asked for it is not repeated and the turn ends', async () => {
    const rounds: DoubleRequest[] = [];
    scriptFor(HELD_QUERY, (req) => {
      rounds.push(req);
      const result = req.messages.find((m) => m.role === 'tool');
      if (result) return { content: `The search says: ${String(result.content).slice(0, 60)}` };
      return { toolCalls: [{ name: 'web_search', arguments: { query: `${HELD_QUERY} weather` } }] };
    });
    const first = await start();
    const threadId = await newThread(first);
    const res = await post(first, threadId, `${HELD_QUERY}: what is the weather today?`);
    assert.equal(res.status, 200);
    const reader = new EventReader(res.body!);
    await reader.until((e) => e.type === 'tool_call');
    await searchSeen;
    await first.kill('SIGKILL');
    releaseSearch();
    const asked = rounds.filter((r) => !r.messages.some((m) => m.role === 'tool')).length;
    assert.equal(asked, 1, 'one model call asked for the search');

    const second = await start({}, first.dataDir);
    const turnId =
      (await threadOf(second, threadId)).activeTurn?.id ?? (reader.events.find((e) => e.type === 'turn') as { turnId: string }).turnId;
    const events = await allEvents(second, threadId, turnId);
    assert.equal(events.at(-1)?.type, 'done', events.map((e) => e.type).join(','));
    assert.equal(
      rounds.filter((r) => !r.messages.some((m) => m.role === 'tool')).length,
      asked,
      'the call that asked for the search was not made again',
    );
    const thread = await threadOf(second, threadId);
    assert.equal(thread.messages.length, 2);
    assert.equal(thread.messages[1].status, 'complete');
    assert.match(thread.messages[1].content, /^The search says: /);
    assertConsistent(second.dataDir);
    await second.stop();
  });
});

/** Waits (polling, at most 30 s) until `ok` says so: start-up work this suite cannot be told about. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`${what} did not happen within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('stopping Hearth', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`${signal} stops it even while a page holds its live streams open: they end, and the process exits`, async () => {
      const server = await start();
      const threadId = await newThread(server);
      const library = await fetch(`${server.url}/api/events`);
      // Ended cleanly or cut as the process went: either way the page is no longer held.
      const libraryEnded = new EventReader(library.body!).rest().catch(() => []);
      const turn = new EventReader((await post(server, threadId, 'Please answer very slowly')).body!);
      await turn.until((e) => e.type === 'delta');
      const turnEnded = turn.rest().catch(() => []);
      const exited = server.kill(signal);
      // Without the streams ending, the server's close waited for every open tab (11 minutes, once).
      const bound = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 20_000).unref());
      assert.equal(await Promise.race([exited.then(() => 'exited' as const), bound]), 'exited');
      await libraryEnded;
      await turnEnded;
    });
  }
});

/** Whether anything accepts connections on this loopback port. */
function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether any process of this process group is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A free loopback port. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe('npm start, stopped as a person or a service manager stops it', () => {
  // Ctrl+C in a terminal signals the whole foreground process group; `docker stop` and a service
  // manager signal the process they started, npm, alone.
  const ways = [
    { name: 'Ctrl+C (SIGINT to the process group)', signal: 'SIGINT' as const, group: true },
    { name: 'SIGTERM to npm alone', signal: 'SIGTERM' as const, group: false },
  ];
  for (const way of ways) {
    test(`${way.name}: the port is free, no Hearth process remains, and the running turn is kept as interrupted`, async () => {
      const port = await freePort();
      const dataDir = makeTempDir('hearth-npm-start');
      const npm = spawn('npm', ['start'], {
        // its own process group: the test can signal it as a terminal would, and find what is left of it
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          NODE_ENV: 'production',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: dataDir,
          LLAMA_URL: double.url,
          MODEL_SLOTS: '1',
          HEARTH_TITLES: 'first-words',
          HEARTH_TIMEZONE: 'UTC',
        },
      });
      const pgid = npm.pid!;
      let output = '';
      npm.stdout.on('data', (c: Buffer) => (output += c.toString()));
      npm.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const killAll = () => groupAlive(pgid) && process.kill(-pgid, 'SIGKILL');
      process.once('exit', killAll);
      try {
        const url = `http://127.0.0.1:${port}`;
        await eventually(
          'npm start answering',
          async () =>
            (await fetch(`${url}/api/threads?limit=1`).then(
              (r) => r.status !== 503,
              () => false,
            )) || undefined,
        );
        assert.doesNotMatch(output, /building/i, 'the e2e run built the app first; npm start must not build again');
        const created = await httpCall(url, 'POST', '/api/threads', { json: {} });
        const threadId = (created.body as { id: string }).id;
        const res = await fetch(`${url}/api/threads/${threadId}/messages`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ content: 'Please answer very slowly' }),
        });
        const turn = new EventReader(res.body!);
        await turn.until(() => turn.events.filter((e) => e.type === 'delta').length >= 5);
        const rest = turn.rest().catch(() => [] as Ev[]);

        if (way.group) process.kill(-pgid, way.signal);
        else npm.kill(way.signal);
        await eventually('the port being free and every process gone', async () =>
          !groupAlive(pgid) && !(await portInUse(port)) ? true : undefined,
        );
        // The page heard why its turn ended before its stream closed.
        const events = await rest;
        const last = events.at(-1) as { type: string; message?: string } | undefined;
        const heard = events.map((e) => (e.type === 'delta' ? (e as { text: string }).text : '')).join('');
        assert.equal(last?.type, 'error', JSON.stringify(last));
        assert.match(last?.message ?? '', /Hearth was stopped/);

        // Started again: the turn is not resumed; its words so far are kept, marked interrupted.
        const again = await start({}, dataDir);
        const thread = await threadOf(again, threadId);
        assert.equal(thread.activeTurn, null);
        const answer = thread.messages.find((m) => m.role === 'assistant')!;
        assert.equal(answer.status, 'interrupted');
        assert.match(answer.content, /^word0 word1 word2 word3/);
        assert.equal(answer.content, heard, 'the words the page heard are the words kept');
        assertConsistent(dataDir);
      } finally {
        killAll();
        process.removeListener('exit', killAll);
      }
    });
  }
});

describe('a tool call waiting for the user', () => {
  test('after a SIGKILL and a restart it is asked again, and runs only once allowed', async () => {
    const dir = makeTempDir('hearth-approval');
    const notes = path.resolve('e2e/mcp/notes-server.mjs');
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { notes: { command: process.execPath, args: [notes] } } }));
    scriptFor('crash-approve', (req) =>
      req.messages.some((m) => m.role === 'tool')
        ? { content: 'Done with the notebook.' }
        : { toolCalls: [{ name: 'notes__add_note', arguments: { text: 'after the crash' } }] },
    );
    const ready = (server: HearthServer) =>
      eventually('the notes server', async () => {
        const r = await httpCall(server.url, 'GET', '/api/tool-servers');
        const s = (r.body as { servers: { name: string; status: { state: string } }[] }).servers.find((x) => x.name === 'notes');
        return s?.status.state === 'ready' ? true : undefined;
      });
    const first = await start({}, dir);
    await ready(first);
    const threadId = await newThread(first);
    const reader = new EventReader((await post(first, threadId, 'crash-approve: note something')).body!);
    await reader.until((e) => e.type === 'approval_needed');
    const turnId = (reader.events.find((e) => e.type === 'turn') as { turnId: string }).turnId;
    assert.ok(!reader.events.some((e) => e.type === 'tool_result'), 'nothing ran before it was allowed');
    await first.kill('SIGKILL');

    const second = await start({}, first.dataDir);
    // The turn resumes once the notes server is back, and asks again.
    await eventually(
      'the turn resuming',
      async () => ((await threadOf(second, threadId)).activeTurn as { live?: boolean } | null)?.live || undefined,
    );
    const res = await fetch(`${second.url}/api/threads/${threadId}/turns/${turnId}/events?after=0`);
    const again = new EventReader(res.body!);
    const resumedAt = await again.until((e) => e.type === 'status' && (e as { stage?: string }).stage === 'resumed');
    const asked = (await again.until((e) => e.type === 'approval_needed' && e.seq > resumedAt.seq)) as Extract<
      Ev,
      { type: 'approval_needed' }
    >;
    const answer = await httpCall(second.url, 'POST', `/api/threads/${threadId}/approvals`, {
      json: { callId: asked.callId, allow: true },
    });
    assert.equal(answer.status, 200, answer.text);
    const events = await again.rest();
    const result = events.find((e) => e.type === 'tool_result') as Extract<Ev, { type: 'tool_result' }>;
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.match(JSON.stringify(result.result), /Noted: after the crash/);
    assert.equal(events.at(-1)?.type, 'done');
    assertConsistent(second.dataDir);
    await second.stop();
  });
});

describe('the model server and the disk', () => {
  test('the model server dying mid-answer keeps the partial answer, marked, and the page is told', async () => {
    scriptFor('dies', () => ({ content: 'one two three four five six seven', dropAfterTokens: 4 }));
    const server = await start();
    const threadId = await newThread(server);
    const res = await post(server, threadId, 'dies: count for me');
    const events = await new EventReader(res.body!).rest();
    const end = events.at(-1) as Ev & { code?: string };
    assert.equal(end.type, 'error', events.map((e) => e.type).join(','));
    assert.equal(end.code, 'model_stream_broken');
    const assistant = (await threadOf(server, threadId)).messages[1];
    assert.equal(assistant.status, 'error');
    assert.equal(assistant.errorCode, 'model_stream_broken');
    assert.ok(
      assistant.content.length > 0 && 'one two three four five six seven'.startsWith(assistant.content.trim()),
      `partial kept: "${assistant.content}"`,
    );
    assertConsistent(server.dataDir);
    await server.stop();
  });

  test('a full database (SQLITE_FULL) gives 507 storage_full, loses nothing stored, and Hearth keeps serving', async () => {
    double.setScript(undefined);
    const server = await start({ HEARTH_MAX_DB_MB: '2' });
    const threadId = await newThread(server);
    const res = await post(server, threadId, 'a question kept before the disk fills');
    const events = await new EventReader(res.body!).rest();
    assert.equal(events.at(-1)?.type, 'done');
    const kept = await threadOf(server, threadId);

    // An import larger than what is left: all or nothing, so nothing.
    const lines = [JSON.stringify({ type: 'hearth-library', version: 1, exportedAt: 0 })];
    const big = 'x'.repeat(60_000);
    for (let i = 0; i < 60; i++) {
      const id = `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      lines.push(
        JSON.stringify({
          type: 'thread',
          id,
          title: `t${i}`,
          titleSource: 'user',
          systemPrompt: '',
          pinned: false,
          createdAt: i,
          updatedAt: i,
        }),
      );
      lines.push(
        JSON.stringify({
          type: 'message',
          id: id.replace(/^1/, '2'),
          threadId: id,
          turnId: null,
          role: 'user',
          content: `${i} ${big}`,
          status: 'complete',
          errorCode: null,
          contextBlock: null,
          createdAt: i,
        }),
      );
    }
    lines.push(JSON.stringify({ type: 'end', records: lines.length - 1 }));
    const imported = await httpCall(server.url, 'POST', '/api/import', {
      body: lines.join('\n'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
    assertError(imported, 507, 'storage_full', 'a big import');
    assert.equal(
      ((await httpCall(server.url, 'GET', '/api/threads')).body as { threads: unknown[] }).threads.length,
      1,
      'the import added nothing',
    );

    // Then threads with long instructions until the database is full: storage_full, never a 500.
    // Long ones first, then shorter, so that at the end not even a short write fits.
    let full: { status: number; code?: string; message?: string } | undefined;
    for (const size of [19_000, 2_000, 200, 10]) {
      full = undefined;
      for (let i = 0; i < 2000 && !full; i++) {
        const created = await httpCall(server.url, 'POST', '/api/threads', { json: {} });
        const answer =
          created.status === 201
            ? await httpCall(server.url, 'PATCH', `/api/threads/${(created.body as { id: string }).id}`, {
                json: { systemPrompt: `${i} ${'y'.repeat(size)}` },
              })
            : created;
        if (answer.status !== 201 && answer.status !== 200) {
          const error = (answer.body as { error: { code: string; message: string } }).error;
          full = { status: answer.status, ...error };
        }
      }
    }
    assert.ok(full, 'the database filled up');
    assert.deepEqual({ status: full.status, code: full.code }, { status: 507, code: 'storage_full' });
    assert.match(full.message ?? '', /full.*nothing new could be saved.*stored before is safe/);
    // A long question now: refused the same way, and not half-stored.
    const question = await post(server, threadId, `one more question ${'z'.repeat(40_000)}`);
    assert.equal(question.status, 507, await question.clone().text());
    assert.equal(((await question.json()) as { error: { code: string } }).error.code, 'storage_full');

    const after = await threadOf(server, threadId);
    assert.deepEqual(after.messages, kept.messages, 'what was stored before is untouched, and nothing half-stored was added');
    assert.equal((await httpCall(server.url, 'GET', '/api/threads')).status, 200, 'reads still work');
    assert.equal((await httpCall(server.url, 'GET', `/api/search?q=question`)).status, 200, 'search still works');
    assertConsistent(server.dataDir);
    await server.stop();
  });
});

describe('backup', () => {
  test('npm run backup copies the database and files while Hearth runs a turn; the copy is consistent and opens', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    scriptFor('backup-during', () => ({ content: 'still writing while the backup runs', hold: { afterTokens: 2, until: held } }));
    const server = await start();
    const threadId = await newThread(server);
    const form = new FormData();
    form.set('file', new File(['kept in the backup\n'], 'note.txt', { type: 'text/plain' }));
    assert.equal((await fetch(`${server.url}/api/attachments`, { method: 'POST', body: form })).status, 201);
    const res = await post(server, threadId, 'backup-during: keep talking');
    const reader = new EventReader(res.body!);
    await reader.until((e) => e.type === 'delta');

    const out = path.join(makeTempDir('hearth-backup'), 'copy');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', out], {
      env: { ...process.env, DATA_DIR: server.dataDir },
      encoding: 'utf8',
    });
    release();
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /Backed up .* database .* MB \(integrity ok\), 1 attached file/);
    assert.equal((await reader.rest()).at(-1)?.type, 'done', 'the turn went on while the backup ran');

    const copy = new Database(path.join(out, 'hearth.db'), { readonly: true });
    try {
      assert.deepEqual(copy.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      const rows = copy.prepare('select role, content from messages where thread_id = ? order by created_at').all(threadId) as {
        role: string;
        content: string;
      }[];
      assert.equal(rows[0]?.content, 'backup-during: keep talking', 'the question is in the copy');
    } finally {
      copy.close();
    }
    const files = fs.readdirSync(path.join(out, 'files'), { recursive: true }).map(String);
    assert.ok(
      files.some((f) => /[0-9a-f]{64}/.test(f)),
      `the attached file is copied: ${files.join(', ')}`,
    );
    assert.ok(!files.some((f) => f.startsWith('tmp')), 'uploads in flight are not');
    const again = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', out], {
      env: { ...process.env, DATA_DIR: server.dataDir },
      encoding: 'utf8',
    });
    assert.equal(again.status, 1, 'a backup never writes into a folder that holds one');
    await server.stop();
  });
});
