import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { docxInflatingTo } from '@/lib/dev/testing/docx';
import { pdfInflatingTo } from '@/lib/dev/testing/pdf';
import { assertError, httpCall } from './client';
import { spawnHearth, startHearth, type HearthServer } from './hearth-server';

/**
 * Exposure and the browser-facing defences, against the production server: the security
 * headers and the page's nonce, cross-site writes by Sec-Fetch-Site, body types, the refusal
 * to listen off loopback without a password, and the login (cookie flags, rate limit, every
 * page and API route behind the session, logout).
 */

const PASSWORD = 'correct horse battery staple';
let double: LlamaDouble;
let open: HearthServer;
let locked: HearthServer;

before(async () => {
  double = await startLlamaDouble();
  [open, locked] = await Promise.all([
    startHearth({ LLAMA_URL: double.url, MODEL_SLOTS: '1' }),
    // Off loopback, as a home server would run; the suite still talks to it on 127.0.0.1.
    startHearth({ LLAMA_URL: double.url, MODEL_SLOTS: '1', HEARTH_PASSWORD: PASSWORD }, { listen: '0.0.0.0' }),
  ]);
});

after(async () => {
  const logs = [open?.stderr() ?? '', locked?.stderr() ?? ''].join('\n');
  await Promise.all([open?.stop(), locked?.stop()]);
  await double?.close();
  assert.doesNotMatch(logs, /Something went wrong|⨯|TypeError|ReferenceError/, 'a server logged an unexpected error');
});

const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];

describe('headers', () => {
  test('a page has a strict CSP with a fresh nonce that its own scripts carry', async () => {
    const first = await httpCall(open.url, 'GET', '/');
    assert.equal(first.status, 200);
    const csp = first.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
    ]) {
      assert.ok(csp.includes(directive), `${directive} in ${csp}`);
    }
    assert.match(
      csp,
      /script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'(;|$)/,
      'scripts: this origin, with the nonce; no unsafe-inline or unsafe-eval',
    );
    const nonce = nonceOf(csp)!;
    const scripts = [...first.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.length > 0, 'the page has scripts');
    for (const tag of scripts) assert.ok(tag.includes(`nonce="${nonce}"`), `every script carries the nonce: ${tag.slice(0, 120)}`);
    const second = await httpCall(open.url, 'GET', '/t/00000000-0000-4000-8000-000000000000');
    assert.notEqual(nonceOf(second.headers.get('content-security-policy') ?? ''), nonce, 'a new nonce per request');
    for (const answer of [first, second]) {
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('x-frame-options'), 'DENY');
      assert.equal(answer.headers.get('referrer-policy'), 'no-referrer');
    }
  });

  test('API answers carry a CSP that lets nothing run or load, and nosniff', async () => {
    for (const path of ['/api/threads', '/api/nothing-here', '/api/health']) {
      const answer = await httpCall(open.url, 'GET', path);
      assert.equal(answer.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'; sandbox", path);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(answer.headers.get('referrer-policy'), 'no-referrer', path);
    }
  });
});

describe('requests', () => {
  test('a write the browser marks cross-site is 403 even without an Origin; a form-encodable body is 415', async () => {
    const before = await httpCall(open.url, 'GET', '/api/threads').then((a) => (a.body as { threads: unknown[] }).threads.length);
    assertError(
      await httpCall(open.url, 'POST', '/api/threads', { json: {}, headers: { 'Sec-Fetch-Site': 'cross-site' } }),
      403,
      'forbidden',
      'cross-site',
    );
    assertError(
      await httpCall(open.url, 'POST', '/api/threads', { json: {}, headers: { 'Sec-Fetch-Site': 'same-site' } }),
      403,
      'forbidden',
      'same-site (a sibling subdomain)',
    );
    assertError(
      await httpCall(open.url, 'POST', '/api/threads', { json: {}, headers: { Origin: 'null' } }),
      403,
      'forbidden',
      'opaque origin',
    );
    assertError(
      await httpCall(open.url, 'POST', '/api/attachments', { body: new FormData(), headers: { 'Sec-Fetch-Site': 'cross-site' } }),
      403,
      'forbidden',
      'cross-site upload',
    );
    assertError(
      await httpCall(open.url, 'POST', '/api/threads', { body: '{}' }),
      415,
      'unsupported_type',
      'a string body is sent as text/plain',
    );
    assertError(
      await httpCall(open.url, 'POST', '/api/threads', { body: new Blob(['{}']) }),
      415,
      'unsupported_type',
      'a body with no type at all',
    );
    assertError(
      await httpCall(open.url, 'POST', '/api/import', { body: new Blob(['{}']) }),
      415,
      'unsupported_type',
      'an import with no type',
    );
    const created = await httpCall(open.url, 'POST', '/api/threads', {
      json: {},
      headers: { 'Sec-Fetch-Site': 'same-origin', Origin: open.url },
    });
    assert.equal(created.status, 201, 'the page itself may write');
    const after = await httpCall(open.url, 'GET', '/api/threads').then((a) => (a.body as { threads: unknown[] }).threads.length);
    assert.equal(after, before + 1, 'only the same-origin write was stored');
  });
});

describe('exposure', () => {
  test('off loopback without a password Hearth refuses to start, and says why', async () => {
    for (const listen of ['0.0.0.0', '::']) {
      const started = await spawnHearth({ LLAMA_URL: double.url }, { listen });
      const code = await started.exit;
      assert.equal(code, 1, `${listen}: ${started.stderr()}`);
      assert.match(started.stderr(), /refuses to listen on .* without a password.*HEARTH_PASSWORD/s, listen);
    }
  });

  test('a loopback listener with other host names allowed needs a password too', async () => {
    const started = await spawnHearth({ LLAMA_URL: double.url, HEARTH_ALLOWED_HOSTS: 'hearth.example.com' });
    assert.equal(await started.exit, 1, started.stderr());
    assert.match(started.stderr(), /HEARTH_ALLOWED_HOSTS/);
  });

  test('a password too short to be one stops the start with a line naming the key, never echoing it', async () => {
    const started = await spawnHearth({ LLAMA_URL: double.url, HEARTH_PASSWORD: 'hunter2' });
    assert.equal(await started.exit, 1, started.stderr());
    assert.match(started.stderr(), /HEARTH_PASSWORD must be at least 8 characters/);
    assert.doesNotMatch(started.stderr(), /hunter2/);
  });
});

describe('login', () => {
  const threadId = '00000000-0000-4000-8000-000000000000';
  const protectedRequests: [string, string, Record<string, unknown>?][] = [
    ['GET', '/api/threads'],
    ['POST', '/api/threads', { json: {} }],
    ['GET', `/api/threads/${threadId}`],
    ['DELETE', `/api/threads/${threadId}`],
    ['POST', `/api/threads/${threadId}/messages`, { json: { content: 'hi' } }],
    ['POST', `/api/threads/${threadId}/messages/${threadId}/regenerate`],
    ['DELETE', `/api/threads/${threadId}/messages/${threadId}`],
    ['GET', '/api/memories'],
    ['GET', '/api/settings'],
    ['PATCH', '/api/settings', { json: { userName: 'x' } }],
    ['POST', '/api/settings/check-model', { json: { url: 'http://127.0.0.1:9' } }],
    ['GET', '/api/search?q=hello'],
    ['GET', '/api/export'],
    ['GET', '/api/events'],
    ['GET', '/api/health'],
    ['GET', '/api/no-such-route'],
    ['POST', '/api/attachments', { body: new FormData() }],
    ['POST', '/api/import', { body: '{}', headers: { 'Content-Type': 'application/json' } }],
  ];

  test('without a session every API route is 401 and every page sends the browser to /login', async () => {
    for (const [method, path, opts] of protectedRequests) {
      assertError(await httpCall(locked.url, method, path, opts), 401, 'unauthorized', `${method} ${path}`);
    }
    for (const path of ['/', `/t/${threadId}`, '/anything']) {
      const answer = await httpCall(locked.url, 'GET', path);
      assert.equal(answer.status, 303, path);
      const location = new URL(answer.headers.get('location') ?? '', locked.url);
      assert.equal(location.pathname, '/login', path);
      if (path !== '/') assert.equal(location.searchParams.get('next'), path);
    }
    const login = await httpCall(locked.url, 'GET', '/login');
    assert.equal(login.status, 200);
    assert.match(login.text, /type="password"/);
    assert.ok(login.headers.get('content-security-policy')?.includes("'nonce-"), 'the login page has the CSP too');
  });

  test('a wrong password is 401; too many from one address are 429 with Retry-After, others still may try', async () => {
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });
    assertError(
      await httpCall(locked.url, 'POST', '/api/auth/login', { json: { password: 'wrong' }, headers: from('10.9.0.1') }),
      401,
      'unauthorized',
    );
    for (let i = 1; i < 10; i++)
      await httpCall(locked.url, 'POST', '/api/auth/login', { json: { password: `wrong ${i}` }, headers: from('10.9.0.1') });
    const limited = await httpCall(locked.url, 'POST', '/api/auth/login', { json: { password: PASSWORD }, headers: from('10.9.0.1') });
    assertError(limited, 429, 'rate_limited', 'the eleventh try, even with the right password');
    assert.ok(Number(limited.headers.get('retry-after')) > 0, 'Retry-After says when');
    assert.equal(limited.headers.get('set-cookie'), null, 'no session for a limited address');
    assertError(
      await httpCall(locked.url, 'POST', '/api/auth/login', { json: { password: 'wrong' }, headers: from('10.9.0.2') }),
      401,
      'unauthorized',
      'another address',
    );
    assertError(
      await httpCall(locked.url, 'POST', '/api/auth/login', {
        json: { password: PASSWORD },
        headers: { ...from('10.9.0.3'), Origin: 'http://evil.example' },
      }),
      403,
      'forbidden',
      'login from another site',
    );
  });

  test('the right password gives an httpOnly SameSite=Strict cookie (Secure behind https) that opens everything until logout', async () => {
    const plain = await httpCall(locked.url, 'POST', '/api/auth/login', {
      json: { password: PASSWORD },
      headers: { 'X-Forwarded-For': '10.9.1.1' },
    });
    assert.equal(plain.status, 200, plain.text);
    const cookie = plain.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^hearth_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/, cookie);
    const secure = await httpCall(locked.url, 'POST', '/api/auth/login', {
      json: { password: PASSWORD },
      headers: { 'X-Forwarded-For': '10.9.1.2', 'X-Forwarded-Proto': 'https' },
    });
    assert.match(secure.headers.get('set-cookie') ?? '', /; Secure$/);

    const session = { Cookie: cookie.split(';')[0] };
    // The password in the environment made the owner (one person: the login form asks no username).
    assert.deepEqual((await httpCall(locked.url, 'GET', '/api/auth/session', { headers: session })).body, {
      required: true,
      loggedIn: true,
      person: { username: 'owner', role: 'owner' },
      usernames: false,
    });
    const created = await httpCall(locked.url, 'POST', '/api/threads', { json: {}, headers: session });
    assert.equal(created.status, 201);
    const page = await httpCall(locked.url, 'GET', '/', { headers: session });
    assert.equal(page.status, 200);
    assert.equal(
      (await httpCall(locked.url, 'GET', '/login', { headers: session })).status,
      307,
      'the login page sends a logged-in browser on',
    );

    const out = await httpCall(locked.url, 'POST', '/api/auth/logout', { headers: session });
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie') ?? '', /^hearth_session=; .*Max-Age=0/);
    assertError(
      await httpCall(locked.url, 'GET', '/api/threads', { headers: session }),
      401,
      'unauthorized',
      'the old cookie is dead on the server',
    );
    assert.deepEqual((await httpCall(locked.url, 'GET', '/api/auth/session', { headers: session })).body, {
      required: true,
      loggedIn: false,
      usernames: false,
    });
  });
});

// The holes a tester found, each tried again the way it was found (nested quotes are opened in
// Chromium in e2e/render.spec.ts).

/** One request with the Host header as given (fetch will not send another host's name). */
function withHost(server: HearthServer, method: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('DNS rebinding', () => {
  test('a Host that only starts like loopback is refused on every path, pages and API; loopback names are served', async () => {
    const port = new URL(open.url).port;
    for (const host of [
      `127.attacker.com:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `127.0.0.1@evil.com:${port}`,
      `localhost.evil.com:${port}`,
      `127.1:${port}`,
    ]) {
      for (const path of ['/api/export', '/api/threads', '/api/settings', '/']) {
        const answer = await withHost(open, 'GET', path, host);
        assert.equal(answer.status, 403, `${host} ${path}: ${answer.status} ${answer.body.slice(0, 120)}`);
      }
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `127.8.9.10:${port}`]) {
      assert.equal((await withHost(open, 'GET', '/api/threads', host)).status, 200, host);
    }
  });

  test('an Origin of the other scheme cannot write', async () => {
    const answer = await httpCall(open.url, 'POST', '/api/threads', { json: {}, headers: { Origin: open.url.replace('http:', 'https:') } });
    assert.equal(answer.status, 403);
  });
});

describe('the login', () => {
  test('40 wrong passwords at once from one address: at most 10 are checked, the rest wait (429)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        httpCall(locked.url, 'POST', '/api/auth/login', { json: { password: 'wrong' }, headers: { 'X-Forwarded-For': '203.0.113.7' } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assert.ok(statuses.filter((s) => s === 401).length <= 10, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 40 - statuses.filter((s) => s === 401).length, statuses.join(','));
  });

  test("a stranger's 20 MB body is answered 401 from its headers, before a byte of it is sent", async () => {
    const { port } = new URL(locked.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    const head = await new Promise<string>((resolve, reject) => {
      let got = '';
      socket.on('data', (c: Buffer) => {
        got += c.toString();
        if (got.includes('\r\n\r\n')) resolve(got);
      });
      socket.on('error', reject);
      socket.write(
        `POST /api/threads HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\n`,
      );
    });
    socket.destroy();
    assert.match(head, /^HTTP\/1\.1 401 /);
  });
});

describe('no input gives a 5xx', () => {
  test('other methods on static files and pages are 405, OPTIONS is 204', async () => {
    const page = await httpCall(open.url, 'GET', '/');
    const script = /<script[^>]+src="(\/_next\/static\/[^"]+)"/.exec(page.text)?.[1];
    assert.ok(script, 'the page names a static script');
    for (const path of ['/favicon.svg', script, '/', '/login']) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const answer = await httpCall(open.url, method, path, { json: {} });
        assert.equal(answer.status, 405, `${method} ${path}: ${answer.status}`);
        assert.equal(answer.headers.get('allow'), 'GET, HEAD, OPTIONS');
      }
      assert.equal((await httpCall(open.url, 'OPTIONS', path)).status, 204, `OPTIONS ${path}`);
    }
  });
});

describe('documents that are small on the wire and huge inside', () => {
  test('the 180 KB Word bomb and the 100 KB PDF bomb are 413, the server answers within a second meanwhile, and lives on', async () => {
    for (const [name, bytes, type] of [
      ['bomb.docx', docxInflatingTo(60 * 1024 * 1024), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['bomb.pdf', pdfInflatingTo(100 * 1024 * 1024), 'application/pdf'],
    ] as const) {
      const form = new FormData();
      form.set('file', new File([Buffer.from(bytes)], name, { type }));
      let done = false;
      const uploading = httpCall(open.url, 'POST', '/api/attachments', { body: form }).finally(() => (done = true));
      let answered = 0;
      while (!done) {
        const started = Date.now();
        const health = await fetch(`${open.url}/api/threads`, { signal: AbortSignal.timeout(1000) });
        assert.equal(health.status, 200, `${name}: a request made while it was read`);
        await health.arrayBuffer();
        assert.ok(Date.now() - started < 1000);
        answered++;
      }
      const refused = await uploading;
      assertError(refused, 413, 'too_large', name);
      assert.ok(answered > 0, `${name}: requests were answered while it was read`);
    }
    assert.equal((await httpCall(open.url, 'GET', '/api/health')).status, 200, 'alive afterwards');
  });
});

describe('what a library file or an upload says of a file', () => {
  test('an imported HTML "image" is a download, a ../ id and a type with a line break are refused, a type with a control character is stored plain', async () => {
    const upload = async (body: BodyInit, headers: Record<string, string> = {}) => {
      const answer = await httpCall(open.url, 'POST', '/api/attachments', { body, headers });
      assert.equal(answer.status, 201, answer.text);
      return answer.body as { id: string; mime: string };
    };
    const form = new FormData();
    const page = '<html><body><form action="https://evil.example/"><input name=password></form></body></html>';
    form.set('file', new File([page], 'page.html', { type: 'text/html' }));
    const html = await upload(form);
    // A part typed text/plain\x01 (no File keeps such a type, so the form is written by hand).
    const raw = `--b0undary\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\x01\r\n\r\nsome notes\r\n--b0undary--\r\n`;
    const notes = await upload(raw, { 'Content-Type': 'multipart/form-data; boundary=b0undary' });
    assert.equal(notes.mime, 'text/plain');
    assert.equal((await httpCall(open.url, 'GET', `/api/attachments/${notes.id}`)).status, 200);

    const thread = (await httpCall(open.url, 'POST', '/api/threads', { json: {} })).body as { id: string };
    const turn = await fetch(`${open.url}/api/threads/${thread.id}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'What do the attached files say?', attachmentIds: [html.id, notes.id] }),
    });
    await turn.text();
    const library = (await httpCall(open.url, 'GET', '/api/export')).text;
    const lying = library
      .split('\n')
      .map((line) =>
        line.includes(`"id":"${html.id}"`) && line.includes('"type":"attachment"')
          ? line.replace('"kind":"text"', '"kind":"image"').replace(/"mime":"[^"]*"/, '"mime":"text/html"')
          : line,
      )
      .join('\n');
    assert.notEqual(lying, library);

    const fresh = await startHearth({ LLAMA_URL: double.url, MODEL_SLOTS: '1' });
    try {
      const importing = (body: string) =>
        httpCall(fresh.url, 'POST', '/api/import', { body, headers: { 'Content-Type': 'application/x-ndjson' } });
      const rebinding = library.replaceAll(thread.id, `../memories/${thread.id}`);
      const refusedId = await importing(rebinding);
      assertError(refusedId, 400, 'bad_request', 'a ../ id');
      assert.match(refusedId.text, /must be a UUID/);
      assertError(
        await importing(library.replace(/"mime":"text\/plain[^"]*"/, '"mime":"text/plain\\r\\nX-Evil: 1"')),
        400,
        'bad_request',
        'a type with a line break',
      );
      assert.equal((await importing(lying)).status, 200);
      const served = await httpCall(fresh.url, 'GET', `/api/attachments/${html.id}`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'application/octet-stream');
      assert.match(served.headers.get('content-disposition') ?? '', /^attachment;/);
      assert.equal(served.text, page);
    } finally {
      await fresh.stop();
    }
  });
});

describe('trusted-header login behind a reverse proxy', () => {
  /** A request from a loopback address of the test's choosing (the proxy is 127.0.0.2; everyone else comes from 127.0.0.1). */
  const from = (app: HearthServer, local: string, path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(path, app.url);
      const request = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, localAddress: local, headers: { host: url.host, ...headers } },
        (response) => {
          let body = '';
          response.on('data', (c: Buffer) => (body += c.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      request.end();
    });

  test('the header names the person only on a connection from the proxy’s address; forged addresses change nothing', async () => {
    const app = await startHearth({
      LLAMA_URL: double.url,
      MODEL_SLOTS: '1',
      HEARTH_PASSWORD: PASSWORD,
      HEARTH_TRUSTED_HEADER: 'Remote-User',
      HEARTH_TRUSTED_PROXIES: '127.0.0.2',
    });
    try {
      // From the proxy: the owner (made from the password) by name, and a new person made a member.
      const owner = await from(app, '127.0.0.2', '/api/auth/session', { 'Remote-User': 'owner' });
      assert.deepEqual(JSON.parse(owner.body).person, { username: 'owner', role: 'owner' });
      // The account is tied to the header's exact value ("Alice"), and named as a username is written.
      assert.equal((await from(app, '127.0.0.2', '/api/threads', { 'Remote-User': 'Alice' })).status, 200);
      const alice = await from(app, '127.0.0.2', '/api/auth/session', { 'Remote-User': 'Alice' });
      assert.deepEqual(JSON.parse(alice.body).person, { username: 'alice', role: 'member' });
      // What the proxy says wins over a session cookie the browser still holds for someone else.
      const ownerLogin = await httpCall(app.url, 'POST', '/api/auth/login', { json: { password: PASSWORD } });
      const ownersCookie = /hearth_session=[^;]*/.exec(ownerLogin.headers.get('set-cookie') ?? '')![0];
      const both = await from(app, '127.0.0.2', '/api/auth/session', { 'Remote-User': 'Alice', Cookie: ownersCookie });
      assert.deepEqual(JSON.parse(both.body).person, { username: 'alice', role: 'member' });
      // The page itself, not only the API (the proxy file checks the same way).
      assert.equal((await from(app, '127.0.0.2', '/', { 'Remote-User': 'Alice' })).status, 200);
      // From anywhere else the header is ignored, however the request claims to come from the proxy.
      const forged: Record<string, string>[] = [
        { 'Remote-User': 'owner' },
        { 'Remote-User': 'owner', 'X-Forwarded-For': '127.0.0.2' },
        { 'Remote-User': 'owner', 'X-Hearth-Peer': '127.0.0.2' },
        { 'Remote-User': 'owner', 'X-Real-IP': '127.0.0.2', Forwarded: 'for=127.0.0.2' },
      ];
      for (const headers of forged) {
        assert.equal((await from(app, '127.0.0.1', '/api/threads', headers)).status, 401, JSON.stringify(headers));
        assert.equal((await from(app, '127.0.0.1', '/', headers)).status, 303, `the page asks for a login: ${JSON.stringify(headers)}`);
      }
    } finally {
      await app.stop();
    }
  });
});
