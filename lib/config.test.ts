import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, parseConfig } from './config';

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
