import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { createAuth } from '@/lib/services/auth/auth';
import { hashPassword, passwordChecker } from '@/lib/services/auth/password';
import { PASSWORD_HASH_FORMAT } from '@/lib/shared/config';
import { clientAddress, DEFAULT_LOGIN_LIMITS, LoginLimiter } from '@/lib/services/auth/rate-limit';
import { isHttps, SessionBook } from '@/lib/services/auth/sessions';
import { parseConfig } from '@/lib/shared/config';
import { setRuntime } from '@/lib/services/runtime';
import { freshStore, sqliteOf } from '@/lib/dev/testing/store';
import * as loginRoute from './auth/login/route';
import * as logoutRoute from './auth/logout/route';
import * as sessionRoute from './auth/session/route';
import { makeRuntime, req } from './harness';

/**
 * The promises README and SECURITY.md make about logins and sessions, each held at its exact
 * value: the lifetime in days (cookie and row), the limits (10 per address, 100 overall, per 15
 * minutes), the scrypt parameters, what is stored of a token, where a session ends.
 */

after(() => setRuntime(undefined));

const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORD = 'correct horse battery staple';

describe('the login routes, with a password', () => {
  let now = 1_000_000_000_000;
  const login = (password: string, headers: Record<string, string> = {}) =>
    loginRoute.POST(req('POST', '/api/auth/login', { password }, headers));
  const cookieOf = (res: Response) => res.headers.get('set-cookie') ?? '';
  const tokenOf = (res: Response) => /hearth_session=([^;]*)/.exec(cookieOf(res))?.[1] ?? '';
  const session = async (token: string) =>
    (await sessionRoute.GET(req('GET', '/api/auth/session', undefined, { cookie: `hearth_session=${token}` }))).json();

  test('a session lasts HEARTH_SESSION_DAYS (30 by default), in the cookie and on the server, to the millisecond', async () => {
    for (const [days, env] of [
      [30, {}],
      [2, { HEARTH_SESSION_DAYS: '2' }],
    ] as const) {
      const rt = await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', env: { HEARTH_PASSWORD: PASSWORD, ...env }, now: () => now });
      const res = await login(PASSWORD);
      assert.equal(res.status, 200);
      assert.equal(cookieOf(res), `hearth_session=${tokenOf(res)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${days * 86_400}`);
      const token = tokenOf(res);
      const owner = (await rt.auth.people.owner())!;
      const row = (await rt.store.sessionsOfUser(owner.id)).find((s) => s.id === createHash('sha256').update(token).digest('hex'));
      assert.deepEqual(row && { createdAt: row.createdAt, expiresAt: row.expiresAt }, { createdAt: now, expiresAt: now + days * DAY_MS });
      const loggedIn = { required: true, loggedIn: true, person: { username: 'owner', role: 'owner' }, usernames: false };
      assert.deepEqual(await session(token), loggedIn);
      now += days * DAY_MS - 1;
      assert.deepEqual(await session(token), loggedIn, 'valid to its last millisecond');
      now += 1;
      assert.deepEqual(await session(token), { required: true, loggedIn: false, usernames: false }, 'and not a millisecond more');
    }
  });

  test('a session cookie is Secure when the request came over https, directly or as a proxy says', async () => {
    await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', env: { HEARTH_PASSWORD: PASSWORD }, now: () => now });
    assert.match(cookieOf(await login(PASSWORD, { 'X-Forwarded-Proto': 'https' })), /; Secure$/);
    assert.doesNotMatch(cookieOf(await login(PASSWORD)), /Secure/);
    for (const [proto, url, https] of [
      ['https, http', 'http://h/', true],
      ['HTTPS', 'http://h/', true],
      ['http', 'https://h/', true],
      ['http', 'http://h/', false],
      ['', 'http://h/', false],
    ] as const) {
      assert.equal(isHttps(new Request(url, { headers: proto ? { 'x-forwarded-proto': proto } : {} })), https, `${proto} ${url}`);
    }
  });

  test('a wrong password is 401; the 11th failure from one address in 15 minutes is 429 with Retry-After in seconds', async () => {
    await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', env: { HEARTH_PASSWORD: PASSWORD }, now: () => now });
    const from = { 'X-Forwarded-For': '203.0.113.7' };
    for (let i = 0; i < 10; i++) {
      const wrong = await login('not it', from);
      assert.equal(wrong.status, 401, `failure ${i + 1}`);
      assert.equal((await wrong.json()).error.message, 'That is not the password.');
      now += 1000;
    }
    const limited = await login(PASSWORD, from);
    assert.equal(limited.status, 429, 'even the right password waits');
    // The first failure leaves the window 15 minutes after it was made: 15 min - 10 s from now.
    assert.equal(limited.headers.get('retry-after'), String(15 * 60 - 10));
    assert.equal((await limited.json()).error.message, 'Too many wrong passwords. Try again in 15 minutes.');
    assert.equal((await login(PASSWORD, { 'X-Forwarded-For': '203.0.113.8' })).status, 200, 'another address may log in');
    now += 15 * 60 * 1000 - 10_000;
    assert.equal((await login(PASSWORD, from)).status, 200, 'once the first failure is out of the window');
  });

  test('an account takes 30 wrong passwords in 15 minutes from any addresses; then it waits, whoever asks', async () => {
    await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', env: { HEARTH_PASSWORD: PASSWORD }, now: () => now });
    for (let i = 0; i < 30; i++) {
      const wrong = await login('not it', { 'X-Forwarded-For': `198.51.100.${Math.floor(i / 10)}` });
      assert.equal(wrong.status, 401, `failure ${i + 1}`);
    }
    const limited = await login(PASSWORD, { 'X-Forwarded-For': '198.51.100.99' });
    assert.equal(limited.status, 429, 'a fresh address with the right password waits too');
    now += 15 * 60 * 1000;
    assert.equal((await login(PASSWORD, { 'X-Forwarded-For': '198.51.100.99' })).status, 200);
  });

  test('log out ends the session on the server and clears the cookie; without a password there is nothing to log in to', async () => {
    await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', env: { HEARTH_PASSWORD: PASSWORD }, now: () => now });
    const token = tokenOf(await login(PASSWORD));
    const out = await logoutRoute.POST(req('POST', '/api/auth/logout', {}, { cookie: `hearth_session=${token}` }));
    assert.equal(out.headers.get('set-cookie'), 'hearth_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
    assert.deepEqual(await session(token), { required: true, loggedIn: false, usernames: false });
    await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', now: () => now });
    const open = await login('anything');
    assert.deepEqual(await open.json(), { ok: true, required: false });
    assert.equal(open.headers.get('set-cookie'), null);
    assert.deepEqual(await session('x'), { required: false, loggedIn: false, usernames: false });
  });
});

describe('createAuth, from the configuration', () => {
  test('HEARTH_PASSWORD and HEARTH_PASSWORD_HASH make the owner with the same password; the limits are 10, 100 and 15 minutes', async () => {
    const hash = hashPassword(PASSWORD);
    for (const env of [{ HEARTH_PASSWORD: PASSWORD }, { HEARTH_PASSWORD_HASH: hash }]) {
      const auth = createAuth(parseConfig(env), freshStore());
      assert.equal(await auth.required(), true);
      assert.deepEqual(
        { ...(await auth.login(undefined, PASSWORD)), id: undefined },
        { id: undefined, username: 'owner', role: 'owner' },
        Object.keys(env)[0],
      );
      assert.equal(await auth.login(undefined, `${PASSWORD}!`), null);
      assert.equal(auth.sessionMaxAgeSeconds, 30 * 86_400);
    }
    const none = createAuth(parseConfig({}), freshStore());
    assert.equal(await none.required(), false);
    assert.equal(await none.login(undefined, ''), null, 'no one to log in as');
    assert.deepEqual(DEFAULT_LOGIN_LIMITS, { perAddress: 10, overall: 100, windowMs: 900_000 });
  });
});

describe('what is stored of a session, and how it ends', () => {
  test('the row is the SHA-256 of the token, made when it starts and gone when it ends; expired rows go at the next login', async () => {
    const db = freshStore();
    let now = 5_000;
    const book = new SessionBook(db, 60_000, () => now);
    const person = await db.insertUser({
      id: 'u1',
      username: 'ada',
      role: 'owner',
      passwordHash: null,
      library: 'hearth.db',
      createdAt: 0,
    });
    const { token, expiresAt } = await book.start(person);
    assert.equal(expiresAt, 65_000);
    const id = createHash('sha256').update(token).digest('hex');
    assert.deepEqual(await db.sessionsOfUser('u1'), [{ id, createdAt: 5_000, expiresAt: 65_000, userAgent: null, address: null }]);
    await book.end('not a token');
    assert.ok(await db.sessionById(id), 'a malformed token ends nothing');
    now = 65_001;
    const second = await book.start(person);
    assert.equal(await db.sessionById(id), undefined, 'the expired row went when the next session started');
    await book.end(second.token);
    assert.equal(await db.sessionById(createHash('sha256').update(second.token).digest('hex')), undefined);
    // A row expiring exactly now is no longer valid, but only one already past is deleted.
    await db.insertSession({ id: 'edge', userId: 'u1', createdAt: 0, expiresAt: 70_000 });
    await db.deleteExpiredSessions(70_000);
    assert.ok(await db.sessionById('edge'));
    await db.deleteExpiredSessions(70_001);
    assert.equal(await db.sessionById('edge'), undefined);
  });
});

describe('the password hash', () => {
  test('scrypt N=2^15, r=8, p=1, a 16-byte salt and a 32-byte hash; the password is compared as NFC and cut at 1,024 characters', async () => {
    const encoded = hashPassword(PASSWORD, Buffer.alloc(16, 7));
    const m = PASSWORD_HASH_FORMAT.exec(encoded)!;
    assert.deepEqual([m[1], m[2], m[3]], ['32768', '8', '1']);
    assert.equal(Buffer.from(m[4], 'base64url').length, 16);
    assert.equal(Buffer.from(m[5], 'base64url').length, 32);
    assert.equal(encoded, hashPassword(PASSWORD, Buffer.alloc(16, 7)), 'the same salt gives the same hash');
    const accented = passwordChecker(hashPassword('caf\u00e9 au lait'));
    assert.equal(await accented('cafe\u0301 au lait'), true, 'é typed as e and an accent is the same password');
    const long = 'p'.repeat(1024);
    const check = passwordChecker(hashPassword(long));
    assert.equal(await check(`${long}and more`), true, 'what follows the first 1,024 characters is not hashed');
    assert.equal(await check(long.slice(1)), false);
    for (const bad of ['scrypt$16384$0$1$', 'scrypt$16384$8$0$']) {
      assert.throws(() => passwordChecker(`${bad}${'A'.repeat(22)}$${'A'.repeat(43)}`), /not an scrypt/, bad);
    }
  });
});

describe('the login limiter', () => {
  test('an attempt exactly a window old no longer counts; the overall wait is exact; the address is the first X-Forwarded-For', async () => {
    let now = 0;
    const limiter = new LoginLimiter(freshStore(), 'address', { perAddress: 2, overall: 3, windowMs: 1000 }, () => now);
    await limiter.reserve('a');
    now = 100;
    await limiter.reserve('a');
    assert.equal(await limiter.reserve('a'), 900, 'waits for the first to leave: 1000 - 100');
    now = 1000;
    assert.equal(typeof (await limiter.reserve('a')), 'object', 'the one made at 0 is out at 1000');
    await limiter.reserve('b');
    now = 1050;
    // Overall: 100, 1000, 1000 (b) fill 3; the next from anyone waits until 100 leaves (at 1100).
    assert.equal(await limiter.reserve('c'), 50);
    now = 1100;
    assert.equal(typeof (await limiter.reserve('c')), 'object', 'overall too, an attempt exactly a window old no longer counts');

    const at = (headers: Record<string, string>) => clientAddress(new Request('http://h/', { headers }));
    assert.equal(at({ 'x-forwarded-for': ' 198.51.100.1 , 10.0.0.1' }), '198.51.100.1');
    assert.equal(at({ 'x-real-ip': ' 198.51.100.2 ' }), '198.51.100.2');
    assert.equal(at({ 'x-forwarded-for': 'x'.repeat(300) }).length, 100);
    assert.equal(at({}), 'unknown');
  });

  test('a flood of forged addresses keeps nothing past the window: the attempts older than it are deleted as new ones come', async () => {
    let now = 0;
    const store = freshStore();
    const limiter = new LoginLimiter(store, 'address', { perAddress: 1, overall: 1_000_000, windowMs: 1000 }, () => now);
    for (let i = 0; i < 500; i++) await limiter.reserve(`10.${i}`);
    assert.equal(typeof (await limiter.reserve('10.0')), 'number', 'each forged address is limited');
    now = 1000;
    await limiter.reserve('later');
    const kept = sqliteOf(store).prepare('select count(*) n from login_attempts').get() as { n: number };
    assert.equal(kept.n, 1, 'only the attempt inside the window is kept');
  });
});
