import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { buildAnnouncement, buildWithProgress } from './build-progress';

test('npm start refuses a bad configuration with one line naming the key, before building', () => {
  const r = spawnSync(process.execPath, [path.join('scripts', 'start.mjs')], {
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

test('the first start says what it builds and how long that takes, says it is still going, then how long it took (issue 46)', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  let clock = 0;
  const build = new EventEmitter();
  const said: string[] = [];
  assert.match(buildAnnouncement(true), /first start only.*one to four minutes.*later starts take seconds/);
  const done = buildWithProgress(build, (line) => said.push(line), { everyMs: 15_000, now: () => clock });
  for (const at of [15_000, 30_000]) {
    clock = at;
    t.mock.timers.tick(15_000);
  }
  clock = 83_400;
  build.emit('exit', 0);
  assert.equal(await done, 0);
  assert.deepEqual(said, ['Hearth: still building, 15 s so far…', 'Hearth: still building, 30 s so far…', 'Hearth: built in 83 s.']);
});

test("npm start's build leaves type-checking to npm test and CI; any other build type-checks (issue 46)", async () => {
  const config = path.resolve('next.config.mjs');
  const read = async (env: string | undefined) => {
    const before = process.env.HEARTH_SKIP_TYPECHECK;
    if (env === undefined) delete process.env.HEARTH_SKIP_TYPECHECK;
    else process.env.HEARTH_SKIP_TYPECHECK = env;
    try {
      return ((await import(`${pathToFileURL(config).href}?${env}`)) as { default: { typescript?: { ignoreBuildErrors?: boolean } } })
        .default;
    } finally {
      if (before === undefined) delete process.env.HEARTH_SKIP_TYPECHECK;
      else process.env.HEARTH_SKIP_TYPECHECK = before;
    }
  };
  assert.equal((await read('1')).typescript?.ignoreBuildErrors, true);
  assert.equal((await read(undefined)).typescript?.ignoreBuildErrors, false);
  const prepare = fs.readFileSync(path.resolve('scripts/prepare-start.ts'), 'utf8');
  assert.match(prepare, /HEARTH_SKIP_TYPECHECK: '1'/, "npm start's build sets it");
});
