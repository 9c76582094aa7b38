import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { persona } from '@/e2e/double/persona';
import { startLlamaDouble, type DoubleReply, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { readSse } from '@/lib/contract/sse';
import { applyEvent, newTurnState, type LiveTurnState } from '@/lib/contract/turn-state';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { assertError, EventReader, httpCall, type Answer, type CallOptions, type Ev } from './client';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * The HTTP contract, checked against the production server (`next start`), where
 * instrumentation and every route are bundled apart: statuses and error codes, methods,
 * content types, body limits, unknown and malformed ids, and the turn lifecycle (finished,
 * busy, cancelled, replayed with ?after=N). The llama-server double runs in this process so
 * a test can hold a reply mid-stream and release it, instead of racing the clock.
 */

let double: LlamaDouble;
let hearth: HearthServer;
/** A second app whose model server is broken in the way `brokenModel.mode` says. */
let hearthBroken: HearthServer;
const brokenModel = { mode: 'refuse' as 'refuse' | 'error' | 'loading', server: undefined as http.Server | undefined };
/** Every status a route answered, to prove no 5xx slipped out anywhere. */
const seen: { what: string; status: number; expected5xx: boolean }[] = [];

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const MALFORMED = [
  'xyz',
  '1',
  'not-a-uuid-at-all',
  '00000000-0000-4000-8000-00000000000g',
  `${'a'.repeat(300)}`,
  '%E2%98%83',
  '..%2F..%2Fetc',
];

async function call(
  method: string,
  path: string,
  opts: CallOptions & { server?: HearthServer; expect5xx?: boolean } = {},
): Promise<Answer> {
  const answer = await httpCall((opts.server ?? hearth).url, method, path, opts);
  seen.push({ what: `${method} ${path.slice(0, 80)}`, status: answer.status, expected5xx: Boolean(opts.expect5xx) });
  return answer;
}

async function newThread(server?: HearthServer): Promise<string> {
  const r = await call('POST', '/api/threads', { json: {}, server });
  assert.equal(r.status, 201);
  return (r.body as { id: string }).id;
}

async function threadOf(id: string, server?: HearthServer) {
  const r = await call('GET', `/api/threads/${id}`, { server });
  assert.equal(r.status, 200, r.text);
  return r.body as {
    messages: { id: string; role: string; content: string; status: string; errorCode: string | null }[];
    activeTurn: { id: string; live: boolean } | null;
  };
}

/** A turn's event stream, read one event at a time (a test can stop reading mid-turn). */
async function postMessage(threadId: string, content: string, server?: HearthServer): Promise<{ res: Response; reader: EventReader }> {
  const res = await fetch(`${(server ?? hearth).url}/api/threads/${threadId}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content }),
  });
  seen.push({ what: `POST messages ${content.slice(0, 40)}`, status: res.status, expected5xx: false });
  if (res.status !== 200) assert.fail(`POST messages answered ${res.status}: ${await res.text()}`);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  return { res, reader: new EventReader(res.body!) };
}

async function replay(threadId: string, turnId: string, after: number): Promise<Ev[]> {
  const res = await fetch(`${hearth.url}/api/threads/${threadId}/turns/${turnId}/events?after=${after}`);
  seen.push({ what: 'GET events', status: res.status, expected5xx: false });
  assert.equal(res.status, 200);
  return new EventReader(res.body!).rest();
}

/**
 * Runs `body` while questions containing `marker` get a held reply: the double streams the
 * first words of `words`, then waits until `release` is called (or the test ends). Every other
 * request gets the persona.
 */
async function withHeldReply(marker: string, words: string, body: (release: () => void) => Promise<void>) {
  let release!: () => void;
  const until = new Promise<void>((r) => (release = r));
  const reply: DoubleReply = { content: words, hold: { afterTokens: 3, until } };
  double.setScript((req: DoubleRequest) => {
    const last = req.messages.filter((m) => m.role === 'user').at(-1);
    if (!req.schema && !isTitleRequest(req) && typeof last?.content === 'string' && last.content.includes(marker)) return reply;
    return persona(req);
  });
  try {
    await body(release);
  } finally {
    release();
    double.setScript(undefined);
  }
}

before(async () => {
  double = await startLlamaDouble();
  brokenModel.server = http.createServer((req, res) => {
    if (brokenModel.mode === 'refuse') return req.socket.destroy();
    const status = brokenModel.mode === 'loading' ? 503 : 500;
    const type = brokenModel.mode === 'loading' ? 'unavailable_error' : 'server_error';
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: { code: status, message: brokenModel.mode === 'loading' ? 'Loading model' : 'boom', type } }));
  });
  await new Promise<void>((resolve) => brokenModel.server!.listen(0, '127.0.0.1', resolve));
  const brokenUrl = `http://127.0.0.1:${(brokenModel.server.address() as AddressInfo).port}/v1`;
  [hearth, hearthBroken] = await Promise.all([
    // Text files may be as large as HEARTH_MAX_UPLOAD_MB (512 by default); 20 here keeps the test quick.
    startHearth({
      LLAMA_URL: double.url,
      MODEL_SLOTS: '1',
      MODEL_TIMEOUT_MS: '20000',
      HEARTH_MAX_UPLOAD_MB: '20',
      HEARTH_MAX_IMPORT_MB: '2',
    }),
    startHearth({ LLAMA_URL: brokenUrl, MODEL_SLOTS: '1', MODEL_TIMEOUT_MS: '5000' }),
  ]);
});

after(async () => {
  // Whatever ran, no route may have answered a 5xx it was not asked for, nor logged a crash.
  const unexpected = seen.filter((s) => s.status >= 500 && !s.expected5xx);
  const log = hearth?.stderr() ?? '';
  await Promise.all([hearth?.stop(), hearthBroken?.stop()]);
  await double?.close();
  brokenModel.server?.closeAllConnections();
  await new Promise<void>((resolve) => (brokenModel.server ? brokenModel.server.close(() => resolve()) : resolve()));
  assert.deepEqual(unexpected, [], 'unexpected 5xx answers');
  assert.doesNotMatch(log, /Something went wrong|⨯|TypeError|ReferenceError/, 'the server logged an unexpected error');
});

describe('routes and methods', () => {
  // Every route, with the methods it serves; the rest must be a JSON 405 naming them.
  const routes = (t: string, turn: string, memory: string, message = turn) =>
    [
      ['/api/health', ['GET']],
      ['/api/models', ['GET']],
      ['/api/events', ['GET']],
      ['/api/threads', ['GET', 'POST']],
      [`/api/threads/${t}`, ['GET', 'PATCH', 'DELETE']],
      [`/api/threads/${t}/export`, ['GET']],
      [`/api/threads/${t}/messages`, ['POST']],
      [`/api/threads/${t}/messages/${message}`, ['DELETE']],
      [`/api/threads/${t}/messages/${message}/regenerate`, ['POST']],
      [`/api/threads/${t}/turns/${turn}/events`, ['GET']],
      [`/api/threads/${t}/turns/${turn}/cancel`, ['POST']],
      ['/api/search?q=x', ['GET']],
      ['/api/export', ['GET']],
      ['/api/import', ['POST']],
      ['/api/attachments', ['POST']],
      ['/api/memories', ['GET', 'POST']],
      [`/api/memories/${memory}`, ['PATCH', 'DELETE']],
      ['/api/settings', ['GET', 'PATCH']],
      ['/api/settings/check-model', ['POST']],
      ['/api/settings/check-search', ['POST']],
    ] as const;

  test('a method a route does not serve is a JSON 405 with Allow; OPTIONS lists what it serves', async () => {
    for (const [path, allowed] of routes(UNKNOWN, UNKNOWN, UNKNOWN)) {
      const allow = [...allowed, ...(allowed.includes('GET' as never) ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !(allowed as readonly string[]).includes(m))) {
        const r = await call(method, path, { json: method === 'GET' ? undefined : {} });
        assertError(r, 405, 'method_not_allowed', `${method} ${path}`);
        assert.equal(r.headers.get('allow'), allow, `${method} ${path}`);
      }
      const options = await call('OPTIONS', path);
      assert.equal(options.status, 204, `OPTIONS ${path}`);
      assert.equal(options.headers.get('allow'), allow, `OPTIONS ${path}`);
    }
  });

  test('every served method answers on a real thread, turn and memory', async () => {
    const t = await newThread();
    const { reader } = await postMessage(t, 'hello there');
    const events = await reader.rest();
    const turnId = events[0].type === 'turn' ? events[0].turnId : '';
    const memory = await call('POST', '/api/memories', { json: { text: 'I live in Lyon' } });
    assert.equal(memory.status, 201, memory.text);
    const memoryId = (memory.body as { id: string }).id;
    assert.equal((await call('GET', '/api/health')).status, 200);
    assert.equal((await call('HEAD', '/api/threads')).status, 200);
    assert.equal((await call('GET', `/api/threads/${t}/export`)).status, 200);
    assert.equal((await call('GET', `/api/threads/${t}/turns/${turnId}/events`)).status, 200);
    assert.equal((await call('POST', `/api/threads/${t}/turns/${turnId}/cancel`)).status, 202);
    assert.equal((await call('GET', '/api/search?q=hello')).status, 200);
    const library = await call('GET', '/api/export');
    assert.equal(library.status, 200);
    assert.match(library.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    const imported = await call('POST', '/api/import', { body: library.text, headers: { 'Content-Type': 'application/x-ndjson' } });
    assert.equal(imported.status, 200, imported.text);
    assert.ok(
      Object.values((imported.body as { added: Record<string, number> }).added).every((n) => n === 0),
      'the library imported into itself adds nothing',
    );
    assert.equal((await call('GET', '/api/memories')).status, 200);
    assert.equal((await call('PATCH', `/api/memories/${memoryId}`, { json: { text: 'I live in Lyon, France' } })).status, 200);
    assert.equal((await call('DELETE', `/api/memories/${memoryId}`)).status, 204);
    // Branches: a new answer beside the first (its stream ends done), the first shown again, then deleted.
    const first = events.find((e) => e.type === 'turn') as Extract<Ev, { type: 'turn' }>;
    const again = await fetch(`${hearth.url}/api/threads/${t}/messages/${first.assistantMessageId}/regenerate`, { method: 'POST' });
    assert.equal(again.status, 200);
    assert.match(again.headers.get('content-type') ?? '', /text\/event-stream/);
    assert.match(await again.text(), /"type":"done"/);
    const shown = await call('PATCH', `/api/threads/${t}`, { json: { branch: first.assistantMessageId } });
    assert.equal(shown.status, 200, shown.text);
    assert.equal((shown.body as { messages: { id: string }[] }).messages[1].id, first.assistantMessageId);
    const cut = await call('DELETE', `/api/threads/${t}/messages/${first.assistantMessageId}`);
    assert.equal(cut.status, 200, cut.text);
    assert.equal((cut.body as { messages: unknown[] }).messages.length, 2, 'the other answer is shown');
    assert.equal((await call('PATCH', `/api/threads/${t}`, { json: { title: 'Renamed' } })).status, 200);
    assert.equal((await call('DELETE', `/api/threads/${t}`)).status, 204);
    // Settings: read, changed, put back; the live checks answer in words, also for a server that is not there.
    assert.equal((await call('GET', '/api/settings')).status, 200);
    const named = await call('PATCH', '/api/settings', { json: { userName: 'Sam' } });
    assert.equal(named.status, 200, named.text);
    assert.deepEqual((named.body as { overridden: string[] }).overridden, ['userName']);
    assert.deepEqual((await call('PATCH', '/api/settings', { json: { userName: null } })).body, (await call('GET', '/api/settings')).body);
    const dead = await call('POST', '/api/settings/check-model', { json: { url: 'http://127.0.0.1:9/v1' } });
    assert.equal(dead.status, 200);
    assert.equal((dead.body as { reachable: boolean }).reachable, false);
    const noSearch = await call('POST', '/api/settings/check-search', { json: { url: 'http://127.0.0.1:9' } });
    assert.equal(noSearch.status, 200);
    assert.equal((noSearch.body as { ok: boolean }).ok, false);
    assertError(await call('PATCH', '/api/settings', { json: { timezone: 'Mars/Olympus' } }), 400, 'bad_request');
  });

  test('an /api path no route serves is a JSON 404, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['POST', '/api/threads/x/y/z'],
      ['DELETE', '/api/memories/a/b'],
      ['GET', `/api/threads/${UNKNOWN}/turns`],
    ] as const) {
      assertError(await call(method, path, { json: method === 'GET' ? undefined : {} }), 404, 'not_found', `${method} ${path}`);
    }
  });
});

describe('ids', () => {
  /** Every route that takes an id, with `id` in its place (turn ids under a real thread). */
  const routesWithId = (thread: string, id: string): [string, string, unknown?][] => [
    ['GET', `/api/threads/${id}`],
    ['PATCH', `/api/threads/${id}`, { title: 'x' }],
    ['DELETE', `/api/threads/${id}`],
    ['GET', `/api/threads/${id}/export`],
    ['POST', `/api/threads/${id}/messages`, { content: 'hi' }],
    ['POST', `/api/threads/${id}/messages`, { content: 'hi', editOf: UNKNOWN }],
    ['DELETE', `/api/threads/${thread}/messages/${id}`],
    ['POST', `/api/threads/${thread}/messages/${id}/regenerate`],
    ['DELETE', `/api/threads/${id}/messages/${id}`],
    ['GET', `/api/threads/${thread}/turns/${id}/events`],
    ['POST', `/api/threads/${thread}/turns/${id}/cancel`],
    ['GET', `/api/threads/${id}/turns/${id}/events`],
    ['PATCH', `/api/memories/${id}`, { text: 'a fact' }],
    ['DELETE', `/api/memories/${id}`],
  ];

  test('a well-formed but unknown id is 404 on every route that takes one, and nothing is stored', async () => {
    const t = await newThread();
    for (const [method, path, json] of routesWithId(t, UNKNOWN)) {
      assertError(await call(method, path, { json }), 404, 'not_found', `${method} ${path}`);
    }
    assert.deepEqual((await threadOf(t)).messages, []);
  });

  test('a malformed id is 404 too (it names nothing), never a 500', async () => {
    const t = await newThread();
    for (const bad of MALFORMED) {
      for (const [method, path, json] of routesWithId(t, bad)) {
        assertError(await call(method, path, { json }), 404, 'not_found', `${method} ${path}`);
      }
    }
  });

  test("a turn is unknown under another thread's id", async () => {
    const a = await newThread();
    const b = await newThread();
    const events = await (await postMessage(a, 'hello')).reader.rest();
    const turnId = (events[0] as Extract<Ev, { type: 'turn' }>).turnId;
    assertError(await call('GET', `/api/threads/${b}/turns/${turnId}/events`), 404, 'not_found');
    assertError(await call('POST', `/api/threads/${b}/turns/${turnId}/cancel`), 404, 'not_found');
  });
});

describe('bodies', () => {
  test('content types: JSON routes take JSON, uploads take multipart (415 otherwise)', async () => {
    const t = await newThread();
    for (const [path, method] of [
      ['/api/threads', 'POST'],
      [`/api/threads/${t}`, 'PATCH'],
      [`/api/threads/${t}/messages`, 'POST'],
      ['/api/memories', 'POST'],
    ] as const) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp']) {
        assertError(
          await call(method, path, { body: '{}', headers: { 'Content-Type': type } }),
          415,
          'unsupported_type',
          `${method} ${path} ${type}`,
        );
      }
    }
    assertError(await call('POST', '/api/attachments', { json: { file: 'x' } }), 415, 'unsupported_type');
    assertError(
      await call('POST', '/api/attachments', { body: 'hello', headers: { 'Content-Type': 'text/plain' } }),
      415,
      'unsupported_type',
    );
    const form = new FormData();
    form.append('file', new Blob(['{}']), 'library.jsonl');
    assertError(await call('POST', '/api/import', { body: form }), 415, 'unsupported_type', 'import as a form');
    assertError(
      await call('POST', '/api/import', { body: '[{"title":"a chat from elsewhere"}]', headers: { 'Content-Type': 'application/json' } }),
      400,
      'bad_request',
      'foreign import',
    );
    assert.deepEqual((await threadOf(t)).messages, []);
  });

  test('malformed JSON is 400 invalid_json; a body of the wrong shape is 400 bad_request', async () => {
    const t = await newThread();
    for (const raw of ['{', '{"content": }', 'null x', '\u0000', '[1,2']) {
      assertError(await call('POST', `/api/threads/${t}/messages`, { json: raw }), 400, 'invalid_json', raw);
    }
    assertError(
      await call('POST', `/api/threads/${t}/messages`, {
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
      'invalid_json',
      'not UTF-8',
    );
    for (const body of [
      {},
      { content: '' },
      { content: '   ' },
      { content: 5 },
      { content: 'hi', extra: 1 },
      { content: 'hi', attachmentIds: ['nope'] },
      [],
      'just a string',
    ]) {
      assertError(
        await call('POST', `/api/threads/${t}/messages`, { json: JSON.stringify(body) }),
        400,
        'bad_request',
        JSON.stringify(body),
      );
    }
    for (const body of [{}, { title: '' }, { pinned: 'yes' }, { colour: 'red' }]) {
      assertError(await call('PATCH', `/api/threads/${t}`, { json: body }), 400, 'bad_request', JSON.stringify(body));
    }
    assertError(await call('POST', '/api/threads', { json: { title: 'x'.repeat(201) } }), 400, 'bad_request');
    assertError(await call('POST', '/api/memories', { json: { nope: 1 } }), 400, 'bad_request');
    assertError(
      await call('POST', '/api/import', { body: 'x'.repeat(3 * 1024 * 1024), headers: { 'Content-Type': 'application/x-ndjson' } }),
      413,
      'too_large',
      'import over HEARTH_MAX_IMPORT_MB (2 here)',
    );
    assert.deepEqual((await threadOf(t)).messages, [], 'nothing was stored');
  });

  test('query strings are validated: 400 with the reason', async () => {
    const t = await newThread();
    for (const path of [
      '/api/threads?limit=0',
      '/api/threads?limit=abc',
      '/api/threads?limit=100000',
      '/api/threads?cursor=garbage',
      '/api/search',
      '/api/search?q=',
      `/api/search?q=${'x'.repeat(201)}`,
      '/api/search?q=x&limit=0',
      `/api/threads/${t}/export?format=xml`,
    ]) {
      assertError(await call('GET', path), 400, 'bad_request', path);
    }
    const { reader } = await postMessage(t, 'hello');
    const turnId = (await reader.until((e) => e.type === 'turn')) as Extract<Ev, { type: 'turn' }>;
    await reader.rest();
    for (const after of ['-1', 'abc', '1.5']) {
      assertError(await call('GET', `/api/threads/${t}/turns/${turnId.turnId}/events?after=${after}`), 400, 'bad_request', after);
    }
  });

  test('oversized bodies are 413, declared or streamed, and nothing is stored', async () => {
    const t = await newThread();
    const huge = JSON.stringify({ content: 'x'.repeat(1_100_000) });
    // A body refused before it is read whole may have its connection closed under it (HTTP
    // allows that), so those requests ask not to share theirs: the next request on a reused,
    // closing socket would be reset, depending on timing.
    const once = { Connection: 'close' };
    assertError(await call('POST', `/api/threads/${t}/messages`, { json: huge, headers: once }), 413, 'too_large', 'declared length');
    // The same body chunked, with no Content-Length: refused while it is read.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        const bytes = new TextEncoder().encode(huge);
        for (let i = 0; i < bytes.length; i += 64 * 1024) c.enqueue(bytes.slice(i, i + 64 * 1024));
        c.close();
      },
    });
    assertError(
      await call('POST', `/api/threads/${t}/messages`, { body: stream, headers: { 'Content-Type': 'application/json', ...once } }),
      413,
      'too_large',
      'chunked',
    );
    assertError(
      await call('POST', `/api/threads/${t}/messages`, { json: { content: 'y'.repeat(100_001) } }),
      413,
      'too_large',
      'message over 100,000 characters',
    );
    assertError(
      await call('POST', '/api/memories', { json: JSON.stringify({ text: 'z'.repeat(1_000_001) }), headers: once }),
      413,
      'too_large',
      'memory body',
    );
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(20 * 1024 * 1024 + 1).fill(0x61)], { type: 'text/plain' }), 'big.txt');
    assertError(
      await call('POST', '/api/attachments', { body: form, headers: once }),
      413,
      'too_large',
      'text upload over HEARTH_MAX_UPLOAD_MB (20 here)',
    );
    // Just under the limit is kept whole: Next's proxy would cut any body at 10 MB unless told otherwise.
    const large = new FormData();
    large.append('file', new Blob([new Uint8Array(19 * 1024 * 1024).fill(0x62)], { type: 'text/plain' }), 'large.txt');
    const kept = await call('POST', '/api/attachments', { body: large });
    assert.equal(kept.status, 201, kept.text);
    assert.equal((kept.body as { size: number }).size, 19 * 1024 * 1024);
    assert.deepEqual((await threadOf(t)).messages, [], 'nothing was stored');
  });

  test('uploads: a text file is kept; a missing field is 400; an unreadable type is 415; an unknown or reused attachment is 400 and stores nothing', async () => {
    const t = await newThread();
    const empty = new FormData();
    empty.append('other', 'x');
    assertError(await call('POST', '/api/attachments', { body: empty }), 400, 'bad_request', 'no file field');
    const png = new FormData();
    png.append(
      'file',
      new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], { type: 'image/png' }),
      'x.png',
    );
    assertError(await call('POST', '/api/attachments', { body: png }), 415, 'unsupported_type', 'png');
    const notes = new FormData();
    notes.append('file', new Blob(['Meeting notes: ship on Friday.\n'], { type: 'text/plain' }), 'notes.txt');
    const up = await call('POST', '/api/attachments', { body: notes });
    assert.equal(up.status, 201, up.text);
    const attachment = up.body as { id: string; name: string; chars: number };
    assert.equal(attachment.name, 'notes.txt');

    const unknown = await call('POST', `/api/threads/${t}/messages`, { json: { content: 'read this', attachmentIds: [UNKNOWN] } });
    assertError(unknown, 400, 'bad_request', 'unknown attachment');
    assert.deepEqual((await threadOf(t)).messages, [], 'the message was not half-stored');

    const sent = await call('POST', `/api/threads/${t}/messages`, {
      json: { content: 'What does the attached file say?', attachmentIds: [attachment.id] },
    });
    assert.equal(sent.status, 200, sent.text);
    assert.match(sent.text, /"type":"done"/);
    const reused = await call('POST', `/api/threads/${t}/messages`, { json: { content: 'again', attachmentIds: [attachment.id] } });
    assertError(reused, 400, 'bad_request', 'reused attachment');
    assert.equal((await threadOf(t)).messages.length, 2);
  });

  test('GET /api/events is an event stream that opens at once and carries library changes (a memory kept)', async () => {
    const abort = new AbortController();
    const res = await fetch(`${hearth.url}/api/events`, { signal: abort.signal });
    seen.push({ what: 'GET /api/events', status: res.status, expected5xx: false });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(res.headers.get('cache-control') ?? '', /no-cache/);
    const frames = readSse(res.body!, abort.signal)[Symbol.asyncIterator]();
    const made = await call('POST', '/api/memories', { json: { text: 'I keep bees' } });
    assert.equal(made.status, 201, made.text);
    const first = await frames.next();
    assert.deepEqual(JSON.parse(first.value.data), { type: 'memories' });
    abort.abort();
    assert.equal((await call('DELETE', `/api/memories/${(made.body as { id: string }).id}`)).status, 204);
  });

  test('memories: kept, refused with the reason (400 refused), edited, deleted', async () => {
    const made = await call('POST', '/api/memories', { json: { text: 'I am vegetarian' } });
    assert.equal(made.status, 201, made.text);
    const id = (made.body as { id: string }).id;
    assertError(await call('POST', '/api/memories', { json: { text: 'I am vegetarian' } }), 400, 'refused', 'duplicate');
    assertError(await call('POST', '/api/memories', { json: { text: 'my password is hunter2' } }), 400, 'refused', 'secret');
    assertError(await call('POST', '/api/memories', { json: { text: '  ' } }), 400, 'refused', 'empty');
    assert.equal((await call('PATCH', `/api/memories/${id}`, { json: { text: 'I am vegan' } })).status, 200);
    assert.equal((await call('DELETE', `/api/memories/${id}`)).status, 204);
    assertError(await call('DELETE', `/api/memories/${id}`), 404, 'not_found', 'deleted twice');
  });

  test('writes from another site and unknown host names are 403', async () => {
    assertError(
      await call('POST', '/api/threads', { json: {}, headers: { Origin: 'http://evil.example' } }),
      403,
      'forbidden',
      'cross-site POST',
    );
    const t = await newThread();
    assertError(
      await call('DELETE', `/api/threads/${t}`, { headers: { Origin: 'http://evil.example' } }),
      403,
      'forbidden',
      'cross-site DELETE',
    );
    assertError(
      await call('PATCH', `/api/threads/${t}`, { json: { title: 'x' }, headers: { Origin: 'https://127.0.0.1.evil.example' } }),
      403,
      'forbidden',
      'cross-site PATCH',
    );
    assert.equal((await threadOf(t)).messages.length, 0);
    // The import route streams its body past the proxy, and guards itself the same way.
    const library = (await call('GET', '/api/export')).text;
    assertError(
      await call('POST', '/api/import', { body: library, headers: { Origin: 'http://evil.example' } }),
      403,
      'forbidden',
      'cross-site import',
    );
    // fetch cannot set Host; send one raw request with a rebound host name.
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(hearth.url);
      http
        .get({ host: u.hostname, port: u.port, path: '/api/threads', headers: { Host: 'evil.example' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    assert.equal(status, 403);
  });
});

describe('turns', () => {
  test('a finished turn: events numbered from 1, done last, replay from 0 and from N', async () => {
    const t = await newThread();
    const { res, reader } = await postMessage(t, 'Tell me about bread');
    const events = await reader.rest();
    assert.deepEqual(
      events.map((e) => e.seq),
      events.map((_, i) => i + 1),
    );
    assert.equal(events[0].type, 'turn');
    assert.equal(events.at(-1)!.type, 'done');
    const turn = events[0] as Extract<Ev, { type: 'turn' }>;
    assert.equal(res.headers.get('x-turn-id'), turn.turnId);
    const message = events.find((e) => e.type === 'message') as Extract<Ev, { type: 'message' }>;
    assert.match(message.content, /bread/);

    // A finished turn is stored compacted (a draft per run of streamed words, references to what
    // tables hold): replay from any N gives, on top of what a client saw up to N, the same turn.
    const seen = (s: LiveTurnState) => ({
      draft: s.draft,
      final: s.final,
      decisions: s.decisions,
      toolCalls: s.toolCalls,
      setAside: s.setAside,
      stats: s.stats,
      ended: s.ended,
    });
    const whole = seen(events.reduce(applyEvent, newTurnState(turn.turnId)));
    for (const n of [0, 1, Math.floor(events.length / 2), events.length - 1]) {
      const rest = await replay(t, turn.turnId, n);
      assert.ok(
        rest.every((e, i) => e.seq > n && (i === 0 || e.seq > rest[i - 1].seq)),
        `after=${n}`,
      );
      const client = rest.reduce(applyEvent, events.filter((e) => e.seq <= n).reduce(applyEvent, newTurnState(turn.turnId)));
      assert.deepEqual(seen(client), whole, `after=${n}`);
    }
    assert.deepEqual(await replay(t, turn.turnId, events.length), []);

    const cancel = await call('POST', `/api/threads/${t}/turns/${turn.turnId}/cancel`);
    assert.equal(cancel.status, 202);
    assert.deepEqual(cancel.body, { turnId: turn.turnId, stopping: false, status: 'done' });
    const view = await threadOf(t);
    assert.deepEqual(
      view.messages.map((m) => [m.role, m.status]),
      [
        ['user', 'complete'],
        ['assistant', 'complete'],
      ],
    );
    assert.equal(view.messages[1].content, message.content);
    assert.equal(view.activeTurn, null);
  });

  test('a busy thread answers 409 turn_running and stores nothing; a cancelled turn keeps its partial answer', async () => {
    await withHeldReply('sourdough', 'Sourdough needs patience because the starter works slowly over many hours', async () => {
      const t = await newThread();
      const { reader } = await postMessage(t, 'Explain sourdough');
      const turn = (await reader.until((e) => e.type === 'turn')) as Extract<Ev, { type: 'turn' }>;
      await reader.until((e) => e.type === 'delta');

      assertError(await call('POST', `/api/threads/${t}/messages`, { json: { content: 'Another question' } }), 409, 'turn_running');
      const during = await threadOf(t);
      assert.equal(during.messages.length, 2, 'the refused message was not stored');
      assert.equal(during.activeTurn?.id, turn.turnId);
      assert.equal(during.activeTurn?.live, true);
      // Other threads are not blocked by this one's turn (they queue for the model instead).
      assert.equal((await call('POST', '/api/threads', { json: {} })).status, 201);

      const cancel = await call('POST', `/api/threads/${t}/turns/${turn.turnId}/cancel`);
      assert.equal(cancel.status, 202);
      assert.deepEqual(cancel.body, { turnId: turn.turnId, stopping: true, status: 'cancelling' });
      const rest = await reader.rest();
      const last = rest.at(-1) as Extract<Ev, { type: 'error' }>;
      assert.equal(last.type, 'error');
      assert.equal(last.code, 'cancelled');

      const after = await threadOf(t);
      assert.equal(after.activeTurn, null);
      const answer = after.messages[1];
      assert.equal(answer.status, 'interrupted');
      assert.equal(answer.content.trim(), 'Sourdough needs patience', 'the partial answer is kept');
      const again = await call('POST', `/api/threads/${t}/turns/${turn.turnId}/cancel`);
      assert.deepEqual(again.body, { turnId: turn.turnId, stopping: false, status: 'cancelled' });

      // The thread takes a new message once the turn has stopped.
      const next = await (await postMessage(t, 'And rye bread?')).reader.rest();
      assert.equal(next.at(-1)!.type, 'done');
    });
  });

  test('a client that re-attaches with ?after=N mid-turn gets the rest, then follows live to done', async () => {
    await withHeldReply('tomatoes', 'Tomatoes like warm soil and a lot of sun in summer', async (release) => {
      const t = await newThread();
      const { reader } = await postMessage(t, 'How do I grow tomatoes?');
      const turn = (await reader.until((e) => e.type === 'turn')) as Extract<Ev, { type: 'turn' }>;
      const firstDelta = await reader.until((e) => e.type === 'delta');
      const res = await fetch(`${hearth.url}/api/threads/${t}/turns/${turn.turnId}/events?after=${firstDelta.seq}`);
      assert.equal(res.status, 200);
      const live = new EventReader(res.body!);
      release();
      const [original, resumed] = await Promise.all([reader.rest(), live.rest()]);
      assert.equal(original.at(-1)!.type, 'done');
      assert.deepEqual(
        resumed,
        original.filter((e) => e.seq > firstDelta.seq),
      );
    });
  });

  test('deleting a thread while its turn runs stops the turn and ends its stream', async () => {
    await withHeldReply('bees', 'Bees dance to tell each other where the flowers are', async () => {
      const t = await newThread();
      const { reader } = await postMessage(t, 'Why do bees dance?');
      await reader.until((e) => e.type === 'delta');
      assert.equal((await call('DELETE', `/api/threads/${t}`)).status, 204);
      const last = (await reader.rest()).at(-1) as Extract<Ev, { type: 'error' }>;
      assert.equal(last.type, 'error');
      assert.equal(last.code, 'cancelled');
      assertError(await call('GET', `/api/threads/${t}`), 404, 'not_found');
    });
  });
});

describe('thinking models', () => {
  test('thinking streams before the answer as events of its own; the checks and the title are asked with thinking off', async () => {
    const t = await newThread();
    const before = double.requests.length;
    // The title is written in the background after the turn: the library's stream says when.
    const stopUpdates = new AbortController();
    const updates = await fetch(`${hearth.url}/api/events`, { signal: stopUpdates.signal });
    const library = new EventReader(updates.body!);
    const { reader } = await postMessage(t, 'Please think it through: how many legs has a spider?');
    const events = await reader.rest();
    await library.until(
      (u) => (u as unknown as { type: string; id?: string }).type === 'thread' && (u as unknown as { id: string }).id === t,
    );
    stopUpdates.abort();
    const kinds = events.map((e) => e.type);
    const firstThinking = kinds.indexOf('thinking');
    const firstDelta = kinds.indexOf('delta');
    assert.ok(firstThinking > 0 && firstThinking < firstDelta, kinds.join(','));
    assert.ok(kinds.indexOf('thought') > firstThinking && kinds.indexOf('thought') < firstDelta, 'closed before the answer');
    const message = events.find((e) => e.type === 'message') as Extract<Ev, { type: 'message' }>;
    assert.equal(message.content, 'After thinking it through: the answer is 42.');
    const done = events.at(-1) as Extract<Ev, { type: 'done' }>;
    assert.ok((done.stats.thinkingTokens ?? 0) > 50, JSON.stringify(done.stats));
    assert.ok(done.stats.firstThinkingMs! < done.stats.firstTokenMs!);
    // Every call that is not the conversation's (checks, the title) asked the model not to think.
    const side = double.requests.slice(before).filter((r) => r.schema || isTitleRequest(r));
    assert.ok(side.length > 0);
    for (const r of side) {
      assert.deepEqual(r.body.chat_template_kwargs, { enable_thinking: false });
      assert.equal(r.body.reasoning_effort, 'none');
    }
    const view = (await threadOf(t)) as unknown as { messages: { role: string; thinking: { text: string; tokens?: number }[] }[] };
    const answer = view.messages.find((m) => m.role === 'assistant')!;
    assert.equal(answer.thinking.length, 1);
    assert.match(answer.thinking[0].text, /^The user wants me to think it through\./);
  });

  test('a thread exported as JSON, and the library, come back with their thinking after an import', async () => {
    const t = await newThread();
    await (await postMessage(t, 'Please think it through: is water wet?')).reader.rest();
    const exported = await call('GET', `/api/threads/${t}/export?format=json`);
    assert.equal(exported.status, 200);
    const library = await call('GET', '/api/export');
    const markdown = await call('GET', `/api/threads/${t}/export?format=md`);
    assert.match(markdown.text, /> \*\*Thinking\*\* \([\d.]+ s, \d+ tokens\)\n>\n> The user wants me to think it through\./);
    const thinkingOf = async () =>
      ((await threadOf(t)) as unknown as { messages: { role: string; thinking: { text: string }[] }[] }).messages.find(
        (m) => m.role === 'assistant',
      )!.thinking;
    const original = await thinkingOf();
    assert.equal(original.length, 1);
    for (const [what, body, type] of [
      ['thread JSON', exported.text, 'application/json'],
      ['library', library.text, 'application/x-ndjson'],
    ] as const) {
      assert.equal((await call('DELETE', `/api/threads/${t}`)).status, 204);
      const imported = await call('POST', '/api/import', { body, headers: { 'Content-Type': type } });
      assert.equal(imported.status, 200, `${what}: ${imported.text}`);
      assert.deepEqual(
        (await thinkingOf()).map((b) => b.text),
        original.map((b) => b.text),
        what,
      );
    }
    // Found by a search that asks for thinking, and only then.
    const plain = await call('GET', '/api/search?q=wants%20think%20through');
    assert.ok(!(plain.body as { results: { kind: string }[] }).results.some((r) => r.kind === 'thinking'));
    const asked = await call('GET', `/api/search?q=wants%20think%20through&thinking=true&threadId=${t}`);
    assert.ok(
      (asked.body as { results: { kind: string }[] }).results.some((r) => r.kind === 'thinking'),
      asked.text,
    );
  });
});

describe('model server failures', () => {
  test('health: 200 when all is well; 503 unreachable or loading, 502 when it answers with an error', async () => {
    const ok = await call('GET', '/api/health');
    assert.equal(ok.status, 200);
    assert.equal((ok.body as { ok: boolean }).ok, true);

    for (const [mode, status, code] of [
      ['refuse', 503, 'model_unreachable'],
      ['loading', 503, 'model_unreachable'],
      ['error', 502, 'model_error'],
    ] as const) {
      brokenModel.mode = mode;
      const r = await call('GET', '/api/health', { server: hearthBroken, expect5xx: true });
      assertError(r, status, code, mode);
      const report = r.body as { ok: boolean; db: boolean; model: { reachable: boolean; url: string } };
      assert.equal(report.ok, false);
      assert.equal(report.db, true);
      assert.equal(report.model.reachable, false);
    }
  });

  test('a turn against an unreachable or failing model server ends with that code; the question is kept', async () => {
    for (const [mode, code] of [
      ['refuse', 'model_unreachable'],
      ['error', 'model_error'],
    ] as const) {
      brokenModel.mode = mode;
      const t = await newThread(hearthBroken);
      const events = await (await postMessage(t, `Are you there (${mode})?`, hearthBroken)).reader.rest();
      const last = events.at(-1) as Extract<Ev, { type: 'error' }>;
      assert.equal(last.type, 'error', mode);
      assert.equal(last.code, code, mode);
      const view = await threadOf(t, hearthBroken);
      assert.equal(view.messages[0].content, `Are you there (${mode})?`);
      assert.equal(view.messages[1].status, 'error');
      assert.equal(view.messages[1].errorCode, code);
    }
  });
});
