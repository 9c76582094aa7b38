import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasErrorCode } from '@/lib/shared/errors';
import { MASK, maskSecrets, maskServer, restoreSecrets } from './secrets';

test('env and headers leave masked whole; a masked value sent back keeps the stored one while the server is the same', () => {
  const stored = { command: 'x', env: { TOKEN: 'secret', OTHER: 'o' }, headers: { Authorization: 'Bearer s' } };
  assert.deepEqual(maskServer(stored), { command: 'x', env: { TOKEN: MASK, OTHER: MASK }, headers: { Authorization: MASK } });
  assert.deepEqual(restoreSecrets({ command: 'x', env: { TOKEN: MASK, OTHER: 'new' } }, stored), {
    command: 'x',
    env: { TOKEN: 'secret', OTHER: 'new' },
  });
});

test('a masked header does not follow a changed URL, nor a masked env value a changed command or arguments', () => {
  const http = { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer sk-live-1234567890' } };
  assert.deepEqual(restoreSecrets({ url: 'https://mcp.example.com/mcp', headers: { Authorization: MASK } }, http).headers, {
    Authorization: 'Bearer sk-live-1234567890',
  });
  assert.throws(
    () => restoreSecrets({ url: 'https://attacker.example/mcp', headers: { Authorization: MASK } }, http),
    (e: unknown) =>
      hasErrorCode(e, 'bad_request') &&
      /Header Authorization was sent masked, but the URL changed: type it again/.test((e as Error).message),
  );
  const stdio = { command: 'npx', args: ['server'], env: { KEY: 'abcd1234' } };
  for (const changed of [
    { command: 'sh', args: ['server'], env: { KEY: MASK } },
    { command: 'npx', args: ['other'], env: { KEY: MASK } },
  ]) {
    assert.throws(
      () => restoreSecrets(changed, stdio),
      /Environment variable KEY was sent masked, but the command or its arguments changed/,
    );
  }
  assert.throws(() => restoreSecrets({ command: 'npx', env: { NEW: MASK } }, undefined), /NEW was sent masked/);
  // A secret typed anew goes with the new address.
  assert.deepEqual(restoreSecrets({ url: 'https://b.example/mcp', headers: { Authorization: 'Bearer new' } }, http).headers, {
    Authorization: 'Bearer new',
  });
});

test('args and url are masked where they hold secrets, and come back whole when sent back as shown', () => {
  const server = {
    command: 'node',
    args: ['srv.js', '--token', 'plainword', '--api-key=abcd1234', '--port', '8080', 'ghp_abcdefghijklmnop1234'],
    url: undefined,
  };
  const shown = maskServer(server);
  assert.deepEqual(shown.args, ['srv.js', '--token', MASK, `--api-key=${MASK}`, '--port', '8080', MASK]);
  assert.deepEqual(restoreSecrets({ command: 'node', args: shown.args }, server).args, server.args);
  assert.throws(() => restoreSecrets({ command: 'node', args: [MASK] }, server), /Argument 1 was sent masked/);

  const http = { url: 'https://me:hunter22@mcp.example.com/mcp?key=k-12345&region=eu' };
  const url = maskServer(http).url!;
  assert.equal(url, `https://me:${MASK}@mcp.example.com/mcp?key=${MASK}&region=eu`);
  assert.equal(restoreSecrets({ url }, http).url, http.url);
  assert.throws(() => restoreSecrets({ url: url.replace('mcp.example.com', 'attacker.example') }, http), /The URL was sent masked/);
});

test('stderr lines: every known secret and anything shaped like a key is masked; ordinary words stay', () => {
  const known = ['hunter22', 'ab'];
  const cases: [string, string][] = [
    ['starting with key sk-live-abcdef123456', `starting with key ${MASK}`],
    ['password is hunter22 today', `password is ${MASK} today`],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc', `Authorization: Bearer ${MASK}`],
    ['AWS AKIAIOSFODNN7EXAMPLE loaded', `AWS ${MASK} loaded`],
    ['listening on http://127.0.0.1:8123/mcp', 'listening on http://127.0.0.1:8123/mcp'],
    ['a monkey in a keyboard', 'a monkey in a keyboard'],
    ['about 24 tools ready', 'about 24 tools ready'],
  ];
  for (const [line, expected] of cases) assert.equal(maskSecrets(line, known), expected, line);
});
