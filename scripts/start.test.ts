import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

test('npm start refuses a bad configuration with one line naming the key, before building', () => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join('scripts', 'start.ts')], {
    env: { ...process.env, PORT: 'not-a-port' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 1);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /PORT/);
  assert.doesNotMatch(r.stdout, /building/);
});
