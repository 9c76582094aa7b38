import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { nextEnv } from './next-env';

const root = path.resolve(import.meta.dirname, '..');
const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');

test('every place that runs Next (build, start, dev) turns its telemetry off', () => {
  assert.equal(nextEnv().NEXT_TELEMETRY_DISABLED, '1');
  assert.equal(nextEnv().PATH, process.env.PATH, 'the rest of the environment passes through');
  // npm scripts: each command that starts with next, or runs it after &&, sets the variable first.
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  for (const [name, command] of Object.entries(scripts)) {
    for (const part of command.split(/&&|;/)) {
      if (/^\s*next\s/.test(part)) assert.fail(`npm run ${name} runs next without NEXT_TELEMETRY_DISABLED=1: ${part.trim()}`);
    }
  }
  // Scripts and the test harnesses spawn Next with nextEnv() or set the variable themselves.
  const spawners = fs
    .readdirSync(path.join(root, 'scripts'))
    .filter((f) => (f.endsWith('.ts') || f.endsWith('.mjs')) && !f.endsWith('.test.ts'))
    .map((f) => `scripts/${f}`)
    .concat(['playwright.config.ts', 'e2e/contract/hearth-server.ts']);
  for (const file of spawners) {
    const text = read(file);
    if (
      !/['"`]next['"`],\s*\[?\s*['"`](build|start|dev)|npx next (build|start|dev)|bin\/next'\),\s*'start'|nextBin, '(build|start)'/.test(
        text,
      )
    )
      continue;
    assert.match(text, /nextEnv\(|NEXT_TELEMETRY_DISABLED: '1'/, `${file} runs Next with telemetry on`);
  }
  assert.match(read('.ci/run'), /export NEXT_TELEMETRY_DISABLED=1/);
});
