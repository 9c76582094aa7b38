import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exposureRefusal } from './exposure';
import { authVerdict, installSessionCheck, isPublicPath } from './session-check';
import { safeNextPath } from './next-path';
import { hashPassword, passwordChecker } from './password';
import { LoginLimiter, type LoginAttempt } from './rate-limit';
import { freshStore } from '@/lib/dev/testing/store';
import { SessionBook, sessionCookie, sessionTokenFrom, type SessionStore } from './sessions';

test('a password hash checks the right password and nothing else', async () => {
  const encoded = hashPassword('correct horse battery');
  assert.match(encoded, /^scrypt\$32768\$8\$1\$/, 'the hash names its parameters');
  assert.ok(!encoded.includes('correct horse'), 'the hash does not hold the password');
  const check = passwordChecker(encoded);
  assert.equal(await check('correct horse battery'), true);
  for (const wrong of ['correct horse batter', 'Correct horse battery', '', 'correct horse battery '.repeat(100)]) {
    assert.equal(await check(wrong), false, wrong.slice(0, 30));
  }
  assert.notEqual(hashPassword('same password'), hashPassword('same password'), 'a fresh salt each time');
  assert.throws(() => passwordChecker('md5$abc'), /not an scrypt/);
  assert.throws(
    () => passwordChecker('scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$' + 'A'.repeat(43)),
    /not an scrypt/,
    'N must be a power of two',
  );
});

function memoryStore(): SessionStore & { rows: Map<string, { expiresAt: number; userId: string | null }> } {
  const rows = new Map<string, { expiresAt: number; userId: string | null }>();
  return {
    rows,
    insertSession: (r) => void rows.set(r.id, { expiresAt: r.expiresAt, userId: r.userId }),
    sessionById: (id) => {
      const r = rows.get(id);
      return r && { ...r, role: 'member', username: 'ada', disabled: false };
    },
    sessionsOfUser: () => [],
    deleteSessionOf: () => false,
    deleteSession: (id) => void rows.delete(id),
    deleteExpiredSessions: (now) => {
      for (const [id, r] of rows) if (r.expiresAt < now) rows.delete(id);
    },
  };
}

test('sessions: the store keeps a hash of the token, sessions expire, logout ends one everywhere', async () => {
  let now = 1_000_000;
  const store = memoryStore();
  const book = new SessionBook(store, 60_000, () => now);
  const { token } = await book.start({ id: 'u1' });
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  assert.ok(![...store.rows.keys()].includes(token), 'the token itself is not stored');
  assert.equal(await book.valid(token), true);
  assert.equal(await book.valid(token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')), false, 'a changed token is refused');
  for (const junk of [undefined, '', 'x', 'a'.repeat(1000)]) assert.equal(await book.valid(junk), false, String(junk));
  now += 60_001;
  assert.equal(await book.valid(token), false, 'expired');
  const second = await book.start({ id: 'u1' });
  assert.equal(store.rows.size, 1, 'starting a session clears expired ones');
  await book.end(second.token);
  assert.equal(await book.valid(second.token), false, 'ended');
});

test('the cookie is httpOnly, SameSite=Strict, for the whole site, and Secure only over https', () => {
  assert.equal(
    sessionCookie('tok', { maxAgeSeconds: 60, secure: false }),
    'hearth_session=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=60',
  );
  assert.match(sessionCookie('tok', { maxAgeSeconds: 60, secure: true }), /; Secure$/);
  assert.equal(sessionTokenFrom('a=1; hearth_session=abc; b=2'), 'abc');
  assert.equal(sessionTokenFrom('xhearth_session=abc'), undefined);
  assert.equal(sessionTokenFrom(null), undefined);
});

test('failed logins are limited per address and overall; a success clears the address', async () => {
  let now = 0;
  const limiter = new LoginLimiter(freshStore(), 'address', { perAddress: 3, overall: 5, windowMs: 1000 }, () => now);
  const fail = async (address: string) => assert.equal(typeof (await limiter.reserve(address)), 'object', `${address} may try`);
  for (let i = 0; i < 3; i++) {
    await fail('a');
    now += 10;
  }
  assert.equal(await limiter.reserve('a'), 1000 - 30, 'the fourth try waits until the first failure leaves the window');
  await fail('b');
  await fail('c');
  assert.ok(((await limiter.reserve('d')) as number) > 0, 'five failures overall: every address waits');
  now += 1000;
  await fail('e');
  await fail('e');
  await ((await limiter.reserve('e')) as LoginAttempt).succeeded();
  await fail('e');
  await fail('e');
  assert.equal(typeof (await limiter.reserve('e')), 'object', 'a success cleared the earlier failures');
});

test('attempts count when they are made, so concurrent ones cannot pass the limit; a right password takes its attempt back', async () => {
  const limiter = new LoginLimiter(freshStore(), 'address', { perAddress: 10, overall: 100, windowMs: 1000 }, () => 0);
  // 40 tries at once, none checked yet: only 10 may go on to the password check.
  const tries = await Promise.all(Array.from({ length: 40 }, () => limiter.reserve('a')));
  assert.equal(tries.filter((t) => typeof t === 'object').length, 10);
  // 150 from forged addresses: the overall cap holds (90 left after the 10 of a).
  const forged = await Promise.all(Array.from({ length: 150 }, (_, i) => limiter.reserve(`10.0.0.${i}`)));
  assert.equal(forged.filter((t) => typeof t === 'object').length, 90);
  const fresh = new LoginLimiter(freshStore(), 'address', { perAddress: 2, overall: 2, windowMs: 1000 }, () => 0);
  for (let i = 0; i < 5; i++) await ((await fresh.reserve('owner')) as LoginAttempt).succeeded();
  assert.equal(typeof (await fresh.reserve('other')), 'object', 'successes use up nothing overall');
});

test('the attempts are kept in the database: a restart, or another process on it, counts the same ones', async () => {
  const store = freshStore();
  const limits = { perAddress: 2, overall: 100, windowMs: 1000 };
  const before = new LoginLimiter(store, 'address', limits, () => 0);
  await before.reserve('a');
  await before.reserve('a');
  const after = new LoginLimiter(store, 'address', limits, () => 10);
  assert.equal(await after.reserve('a'), 990, 'still waiting after the restart');
  const accounts = new LoginLimiter(store, 'account', limits, () => 10);
  assert.equal(typeof (await accounts.reserve('a')), 'object', 'each limit counts its own attempts');
});

test('exposure: off loopback, or with other host names allowed, a password is required', () => {
  const none = { allowedHosts: [], passwordSet: false };
  for (const host of ['127.0.0.1', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1', '127.0.0.2']) {
    assert.equal(exposureRefusal({ ...none, listening: [host] }), null, host);
  }
  for (const host of ['0.0.0.0', '::', '192.168.1.10', 'hearth.lan']) {
    assert.match(exposureRefusal({ ...none, listening: [host] }) ?? '', /without a password/, host);
    assert.equal(exposureRefusal({ ...none, passwordSet: true, listening: [host] }), null, host);
  }
  assert.match(
    exposureRefusal({ listening: ['127.0.0.1'], allowedHosts: ['hearth.example.com'], passwordSet: false }) ?? '',
    /HEARTH_ALLOWED_HOSTS/,
  );
});

test('the gate: public paths pass; with a password every other path needs a valid session', async () => {
  assert.equal(isPublicPath('/login'), true);
  assert.equal(isPublicPath('/_next/static/chunks/a.js'), true);
  for (const p of ['/', '/t/x', '/api/threads', '/api/health', '/api/auth/loginx', '/login/x', '/_next/data/x'])
    assert.equal(isPublicPath(p), false, p);
  const ada = { id: 'u1', username: 'ada', role: 'member' as const };
  installSessionCheck({
    required: async () => true,
    person: async (t) => (t === 'good' ? ada : null),
    owner: async () => null,
    vouched: async () => null,
  });
  try {
    assert.equal(await authVerdict('/api/threads', new Headers({ cookie: 'hearth_session=good' })), 'ok');
    assert.equal(await authVerdict('/api/threads', new Headers({ cookie: 'hearth_session=bad' })), 'login');
    assert.equal(await authVerdict('/', new Headers()), 'login');
    assert.equal(await authVerdict('/login', new Headers()), 'ok');
    installSessionCheck({ required: async () => false, person: async () => null, owner: async () => ada, vouched: async () => null });
    assert.equal(await authVerdict('/api/threads', new Headers()), 'ok', 'no accounts: open');
  } finally {
    installSessionCheck({ required: async () => false, person: async () => null, owner: async () => null, vouched: async () => null });
  }
});

test('after login the page goes only to a path on this site', () => {
  assert.equal(safeNextPath('/t/abc?x=1'), '/t/abc?x=1');
  for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '', null, '/a\nb']) {
    assert.equal(safeNextPath(bad), '/', String(bad));
  }
});
