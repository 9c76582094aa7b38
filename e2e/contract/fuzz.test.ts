import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { HOSTILE_FILE_NAME } from '@/e2e/double/hostile';
import { endpoints } from '@/lib/contract/endpoints';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * Every API route of the production server fed generated requests: methods, paths with real,
 * unknown and malformed ids, query strings, JSON and non-JSON bodies of every shape, content
 * types, and multipart uploads with odd names and bytes. No answer may be a 5xx, every API
 * error must keep the JSON contract, the server must not crash or log one, and SQLite must
 * find the database consistent afterwards.
 *
 * Seeded and bounded: HEARTH_FUZZ_SEED (default fixed), HEARTH_FUZZ_RUNS (default 3,000, the
 * short mode CI runs); `npm run fuzz` runs the long mode (50,000).
 */

const SEED = Number(process.env.HEARTH_FUZZ_SEED ?? 20261201);
const RUNS = Number(process.env.HEARTH_FUZZ_RUNS ?? 3000);

let double: LlamaDouble;
let hearth: HearthServer;
const known = { thread: '', turn: '', memory: '', message: '' };

before(async () => {
  // The speech endpoints too, set as Hearth's speech servers: the audio routes reach a server.
  double = await startLlamaDouble({ speech: {} });
  hearth = await startHearth({
    LLAMA_URL: double.url,
    HEARTH_STT_URL: double.baseUrl,
    HEARTH_TTS_URL: double.baseUrl,
    MODEL_SLOTS: '2',
    MODEL_TIMEOUT_MS: '10000',
    HEARTH_TITLES: 'first-words',
    HEARTH_MAX_UPLOAD_MB: '2',
    HEARTH_MAX_IMPORT_MB: '2',
  });
  const thread = (await (
    await fetch(`${hearth.url}/api/threads`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
  ).json()) as { id: string };
  known.thread = thread.id;
  const turn = await fetch(`${hearth.url}/api/threads/${thread.id}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content: 'hello' }),
  });
  const text = await turn.text();
  known.turn = /"turnId":"([^"]+)"/.exec(text)?.[1] ?? '';
  known.message = /"userMessageId":"([^"]+)"/.exec(text)?.[1] ?? '';
  const memory = (await (
    await fetch(`${hearth.url}/api/memories`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'The user likes tea.' }),
    })
  ).json()) as { id: string };
  known.memory = memory.id;
  assert.ok(known.turn && known.memory, 'the seed data exists');
});

after(async () => {
  const log = hearth?.stderr() ?? '';
  await hearth?.stop();
  await double?.close();
  assert.doesNotMatch(log, /Something went wrong|⨯|TypeError|ReferenceError|RangeError|Unhandled/, 'the server logged an unexpected error');
});

const id = fc.oneof(
  fc
    .constantFrom(
      () => known.thread,
      () => known.turn,
      () => known.memory,
      () => known.message,
    )
    .map((f) => f()),
  fc.constant('00000000-0000-4000-8000-000000000000'),
  fc.uuid(),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.constantFrom(
    '..%2F..%2Fetc%2Fpasswd',
    '%00',
    '%E2%98%83',
    'null',
    'undefined',
    '-1',
    '1e308',
    'a'.repeat(300),
    '%2e%2e',
    'CON',
    '__proto__',
    'constructor',
  ),
);

/** Every endpoint of the table (lib/contract/endpoints.ts), by path, with the methods it serves: a new route is fuzzed without anyone adding it here. */
const tableRoutes = (() => {
  const byPath = new Map<string, string[]>();
  for (const e of Object.values(endpoints)) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e.method]);
  return [...byPath].map(([template, methods]): [fc.Arbitrary<string>, string[]] => {
    const names = [...template.matchAll(/:(\w+)/g)];
    const path =
      names.length === 0
        ? fc.constant(template)
        : fc.array(id, { minLength: names.length, maxLength: names.length }).map((values) => {
            let i = 0;
            return template.replace(/:(\w+)/g, () => values[i++]);
          });
    return [path, methods];
  });
})();

/** Each route with the methods it serves; most requests use one of them, so they reach the route's own checks. */
const routes: [fc.Arbitrary<string>, string[]][] = [
  ...tableRoutes,
  [fc.constantFrom('/api', '/api/', '/', '/login'), ['GET']],
  [id.map((i) => `/t/${i}`), ['GET']],
  [fc.string({ maxLength: 60 }).map((s) => `/api/${encodeURIComponent(s)}`), ['GET', 'POST']],
  // Static files and pages under every method (Next answered POST on a static file with a bare 500).
  [fc.constantFrom('/favicon.svg', '/_next/static/chunks/missing.js', '/login', '/'), ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']],
];
const ANY_METHOD = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS'];
const routeArb = fc.oneof(
  ...routes.map(([path, methods]) =>
    fc.record({
      path,
      method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...methods) }, { weight: 1, arbitrary: fc.constantFrom(...ANY_METHOD) }),
    }),
  ),
);

const queryValue = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.constantFrom(
    '',
    '-1',
    '0',
    '1e9',
    'NaN',
    'user',
    'assistant',
    '2026-13-45',
    'http://127.0.0.1/x.png',
    'javascript:alert(1)',
    '*',
    '"',
    'a OR b',
    'NEAR(',
    '^$',
  ),
);
const queryArb = fc
  .dictionary(fc.constantFrom('q', 'limit', 'after', 'before', 'threadId', 'role', 'from', 'to', 'url', 'cursor', 'x'), queryValue, {
    maxKeys: 4,
  })
  .map((q) => (Object.keys(q).length ? `?${new URLSearchParams(q)}` : ''));

const jsonField = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 200 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'x'.repeat(120_000),
      '',
      ' ',
      '\u0000',
      '<script>alert(1)</script>',
      'my password is hunter2',
      'sk-abcdefghijklmnopqrstuvwxyz123456',
    ),
  },
  { weight: 1, arbitrary: fc.boolean() },
);
const jsonBody = fc
  .oneof(
    fc.record({ content: jsonField, attachmentIds: fc.oneof(fc.array(id, { maxLength: 3 }), jsonField) }, { requiredKeys: ['content'] }),
    fc.record({ title: jsonField, pinned: jsonField, systemPrompt: jsonField }, { requiredKeys: [] }),
    fc.record({ text: jsonField }, { requiredKeys: [] }),
    fc.record({ password: jsonField }, { requiredKeys: [] }),
    fc.jsonValue({ maxDepth: 3 }),
  )
  .map((v) => JSON.stringify(v));

type Body = { body?: BodyInit; type?: string };
const bodyArb: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({}),
  jsonBody.map((b) => ({ body: b, type: 'application/json' })),
  fc.string({ maxLength: 300 }).map((b) => ({ body: b, type: 'application/json' })),
  fc
    .tuple(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/jsonp',
        'application/json; charset=latin1',
        'application/x-ndjson',
        'application/octet-stream',
        '',
        'a/b/c',
      ),
    )
    .map(([b, type]) => ({ body: b, type })),
  fc.uint8Array({ maxLength: 400 }).map((b) => ({ body: Buffer.from(b), type: 'application/json' })),
  fc
    .record({
      name: fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.constantFrom(
          HOSTILE_FILE_NAME,
          '../../etc/passwd',
          '..\\..\\boot.ini',
          'CON.txt',
          '',
          '.',
          '\u0000.txt',
          'a'.repeat(400) + '.txt',
          'x.pdf',
          'y.docx',
          'z.png',
        ),
      ),
      bytes: fc.uint8Array({ maxLength: 2000 }),
      type: fc.constantFrom('text/plain', 'application/pdf', 'image/png', 'application/octet-stream', ''),
      field: fc.constantFrom('file', 'file', 'other'),
    })
    .map(({ name, bytes, type, field }) => {
      const form = new FormData();
      form.set(field, new File([Buffer.from(bytes)], name || 'unnamed', { type }));
      return { body: form };
    }),
);

/** A multipart upload written by hand, so its part can carry a type no File would keep (control characters, line breaks). */
const rawUpload: fc.Arbitrary<Body> = fc
  .record({
    type: fc.constantFrom(
      'text/plain\x01',
      'text/html\r\nX-Evil: 1',
      'image/svg+xml',
      'text/plain; charset="x',
      'image/png',
      'text/x-\u00e9',
    ),
    bytes: fc.string({ maxLength: 300 }),
  })
  .map(({ type, bytes }) => ({
    body: `--fuzzb\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\nContent-Type: ${type}\r\n\r\n${bytes}\r\n--fuzzb--\r\n`,
    type: 'multipart/form-data; boundary=fuzzb',
  }));

/** A library file whose ids and types are the shapes that broke the page (../ ids, types with line breaks). */
const hostileLibrary: fc.Arbitrary<Body> = fc
  .record({
    threadId: id,
    mime: fc.constantFrom('text/plain', 'text/html\r\nX: 1', 'text/plain\x01', 'image/svg+xml'),
    kind: fc.constantFrom('text', 'image'),
  })
  .map(({ threadId, mime, kind }) => {
    const records = [
      { type: 'thread', id: threadId, title: 'Fuzzed', titleSource: 'user', systemPrompt: '', pinned: false, createdAt: 1, updatedAt: 1 },
      { type: 'memory', id: `../memories/${threadId}`, text: 'x', createdAt: 1, updatedAt: 1 },
      {
        type: 'attachment',
        id: threadId,
        messageId: null,
        name: 'a.txt',
        mime,
        size: 1,
        sha256: '0'.repeat(64),
        text: 'a',
        kind,
        chars: 1,
        lines: 1,
        createdAt: 1,
      },
    ];
    const lines = [{ type: 'hearth-library', version: 1, exportedAt: 1 }, ...records, { type: 'end', records: records.length }];
    return { body: lines.map((l) => JSON.stringify(l)).join('\n'), type: 'application/x-ndjson' };
  });

const requestArb = fc
  .record({
    route: routeArb,
    query: queryArb,
    body: fc.oneof({ weight: 6, arbitrary: bodyArb }, { weight: 1, arbitrary: rawUpload }, { weight: 1, arbitrary: hostileLibrary }),
  })
  .map(({ route, query, body }) => ({ ...route, query, body }));

type Sent = { method: string; path: string; query: string; body: Body };

async function send(r: Sent): Promise<{ status: number; type: string; text: string } | null> {
  const headers: Record<string, string> = {};
  if (r.body.type !== undefined && !(r.body.body instanceof FormData)) headers['Content-Type'] = r.body.type;
  const withBody = r.method !== 'GET' && r.method !== 'HEAD' && r.body.body !== undefined;
  let res: Response;
  try {
    res = await fetch(`${hearth.url}${r.path}${r.query}`, {
      method: r.method,
      headers,
      body: withBody ? r.body.body : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    // A request the client itself refuses to send (an invalid header value) tests nothing.
    if (err instanceof TypeError && !/fetch failed/.test(err.message)) return null;
    throw err;
  }
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, type, text: '' };
  }
  return { status: res.status, type, text: await res.text() };
}

test(
  `${RUNS} generated requests (seed ${SEED}): no 5xx, the JSON error contract, no crash, a consistent database`,
  { timeout: 30 * 60_000 },
  async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const answer = await send(r);
        if (!answer) return;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        assert.ok(answer.status < 500, `${r.method} ${r.path}${r.query} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        if (answer.status >= 400 && r.path.startsWith('/api') && r.method !== 'HEAD') {
          assert.match(answer.type, /^application\/json/, `${r.method} ${r.path}: an error is JSON`);
          const error = (JSON.parse(answer.text) as { error?: { code?: unknown; message?: unknown } }).error;
          assert.equal(typeof error?.code, 'string', answer.text.slice(0, 200));
          assert.equal(typeof error?.message, 'string', answer.text.slice(0, 200));
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `fuzz: ${RUNS} requests, statuses ${[...statuses]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    assert.equal((await fetch(`${hearth.url}/api/health`)).status, 200, 'the server is alive');
    const db = new Database(path.join(hearth.dataDir, 'hearth.db'), { readonly: true });
    try {
      assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }]);
      assert.deepEqual(db.pragma('foreign_key_check'), []);
    } finally {
      db.close();
    }
  },
);
