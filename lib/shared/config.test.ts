import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiKeyFor, ConfigError, parseConfig } from './config';

test('defaults keep Hearth on this machine', () => {
  const c = parseConfig({});
  assert.deepEqual(c.LLAMA_URL, ['http://127.0.0.1:8080/v1']);
  assert.equal(c.HOST, '127.0.0.1');
  assert.equal(c.PORT, 3000);
  assert.equal(c.DATA_DIR, './data');
  assert.equal(c.SEARXNG_URL, undefined);
  assert.deepEqual(c.FETCH_ALLOWED_PORTS, [80, 443]);
  assert.equal(c.MAX_ROUNDS, 6);
});

test('a bad value is a one-line message naming the key', () => {
  for (const [env, key] of [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ LLAMA_URL: 'ftp://x' }, 'LLAMA_URL'],
    [{ LLAMA_URL: 'http://a:8080/v1, nope' }, 'LLAMA_URL'],
    [{ LLAMA_URL: ' , ' }, 'LLAMA_URL'],
    [{ HOST: 'a b' }, 'HOST'],
    [{ HEARTH_TIMEZONE: 'Mars/Olympus' }, 'HEARTH_TIMEZONE'],
    [{ FETCH_ALLOWED_PORTS: '80,http' }, 'FETCH_ALLOWED_PORTS'],
    [{ SEARXNG_URL: 'not a url' }, 'SEARXNG_URL'],
  ] as const) {
    assert.throws(
      () => parseConfig(env),
      (err: unknown) => err instanceof ConfigError && err.message.includes(key) && !err.message.includes('\n'),
      key,
    );
  }
});

test('LLAMA_URL lists one or more llama-servers, comma-separated; repeats and trailing slashes do not count twice', () => {
  assert.deepEqual(parseConfig({ LLAMA_URL: 'http://gpu1:8080/v1, http://gpu2:8080/v1/,http://gpu1:8080/v1' }).LLAMA_URL, [
    'http://gpu1:8080/v1',
    'http://gpu2:8080/v1',
  ]);
});

test('an empty SEARXNG_URL means web search is off', () => {
  assert.equal(parseConfig({ SEARXNG_URL: '' }).SEARXNG_URL, undefined);
  assert.equal(parseConfig({ SEARXNG_URL: 'http://127.0.0.1:8888' }).SEARXNG_URL, 'http://127.0.0.1:8888');
});

test('LLAMA_API_KEY goes only to the servers the environment names, by origin; never to another address', () => {
  const config = parseConfig({
    LLAMA_URL: 'http://10.0.0.5:8080/v1,http://gpu2:8081/v1',
    EMBEDDINGS_URL: 'http://emb:9000/v1',
    LLAMA_API_KEY: 'sk-env',
  });
  assert.equal(apiKeyFor(config, 'http://10.0.0.5:8080/v1'), 'sk-env');
  assert.equal(apiKeyFor(config, 'http://10.0.0.5:8080/other/v1'), 'sk-env', 'same server, another path');
  assert.equal(apiKeyFor(config, 'http://gpu2:8081'), 'sk-env');
  assert.equal(apiKeyFor(config, 'http://emb:9000/v1'), 'sk-env');
  for (const other of ['http://10.0.0.5:8081/v1', 'https://10.0.0.5:8080/v1', 'http://attacker.example/v1', 'not a url', '']) {
    assert.equal(apiKeyFor(config, other), undefined, other);
  }
  assert.equal(apiKeyFor(parseConfig({ LLAMA_URL: 'http://10.0.0.5:8080/v1' }), 'http://10.0.0.5:8080/v1'), undefined, 'no key, none sent');
});

test('every default docs/configuration.md states is the default Hearth uses, and setting the key changes it', async () => {
  const fs = await import('node:fs');
  const table = fs.readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
  const rows = [...table.matchAll(/^\| `([A-Z_]+)`(?: ⚙)? \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim()] as const);
  assert.ok(rows.length >= 35, `${rows.length} keys in the table`);
  const defaults = parseConfig({}) as Record<string, unknown>;
  const shown = (v: unknown) => (Array.isArray(v) ? v.join(',') : v === undefined ? 'unset' : String(v));
  let checked = 0;
  for (const [key, stated] of rows) {
    const literal = /^`([^`]*)`$/.exec(stated)?.[1];
    if (stated === 'unset') {
      const none = defaults[key] === undefined || defaults[key] === '' || (Array.isArray(defaults[key]) && defaults[key].length === 0);
      assert.ok(none, `${key}: documented unset, is ${shown(defaults[key])}`);
    } else if (literal !== undefined && !literal.includes('DATA_DIR')) {
      assert.equal(shown(defaults[key]), literal, `${key}: documented default ${literal}`);
      // A different valid value is taken as given: the key is read, not ignored.
      const other = /^\d+$/.test(literal)
        ? String(Number(literal) + 1)
        : literal === 'true' || literal === 'false'
          ? String(literal !== 'true')
          : null;
      if (other !== null)
        assert.equal(shown(parseConfig({ [key]: other })[key as keyof ReturnType<typeof parseConfig>]), other, `${key}=${other}`);
    } else continue;
    checked++;
  }
  assert.ok(checked >= 25, `${checked} documented defaults checked`);
});

test('single sign-on and a trusted header need all their parts: half a setting stops the start, naming what is missing', () => {
  assert.throws(
    () => parseConfig({ HEARTH_OIDC_ISSUER: 'https://auth.example' }),
    (e: Error) => e instanceof ConfigError && /HEARTH_OIDC_CLIENT_ID must be set with HEARTH_OIDC_ISSUER/.test(e.message),
  );
  assert.throws(
    () => parseConfig({ HEARTH_TRUSTED_HEADER: 'Remote-User' }),
    (e: Error) => /HEARTH_TRUSTED_PROXIES must name the proxy's address/.test(e.message),
  );
  assert.throws(() => parseConfig({ HEARTH_TRUSTED_HEADER: 'Remote User', HEARTH_TRUSTED_PROXIES: '127.0.0.1' }), /a header name/);
  assert.throws(() => parseConfig({ HEARTH_TRUSTED_PROXIES: '10.0.0.0/8' }), /must be IP addresses.*10\.0\.0\.0\/8/);
  const set = parseConfig({
    HEARTH_TRUSTED_HEADER: 'Remote-User',
    HEARTH_TRUSTED_PROXIES: ' 10.0.0.2, ::1 ',
    HEARTH_OIDC_DOMAINS: '@Example.org, other.example',
  });
  assert.equal(set.HEARTH_TRUSTED_HEADER, 'remote-user');
  assert.deepEqual(set.HEARTH_TRUSTED_PROXIES, ['10.0.0.2', '::1']);
  assert.deepEqual(set.HEARTH_OIDC_DOMAINS, ['example.org', 'other.example']);
  // The client secret is never echoed when it is refused.
  assert.throws(
    () => parseConfig({ HEARTH_OIDC_CLIENT_SECRET: 'x'.repeat(3000) }),
    (e: Error) => /HEARTH_OIDC_CLIENT_SECRET/.test(e.message) && !e.message.includes('xxxx'),
  );
});
