import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const read = <T>(p: string) => JSON.parse(fs.readFileSync(path.join(root, p), 'utf8')) as T;

/** Node versions Hearth says it runs on: the least of each range it names (20.19, 22.13), and the newest line. */
const SUPPORTED = ['20.19.0', '22.13.0', '24.0.0'];

test('every installed package runs on the Node versions the README and package.json name (npm ci warns of none)', () => {
  const ours = read<{ engines: { node: string } }>('package.json').engines.node;
  for (const v of SUPPORTED) assert.ok(semver.satisfies(v, ours), `${v} is in our own range ${ours}`);
  const lock = read<{ packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean; optional?: boolean }> }>(
    'package-lock.json',
  );
  const refused: string[] = [];
  for (const [where, pkg] of Object.entries(lock.packages)) {
    const node = pkg.engines && !Array.isArray(pkg.engines) ? pkg.engines.node : undefined;
    if (!where || !node || pkg.optional) continue;
    for (const v of SUPPORTED.filter((s) => semver.satisfies(s, ours))) {
      if (!semver.satisfies(v, node, { includePrerelease: true }))
        refused.push(`${where.replace(/^node_modules\//, '')} needs node ${node} (not ${v})`);
    }
  }
  assert.deepEqual(refused, []);
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  assert.match(readme, /Node\.js 20\.19\+ or 22\.13\+/, 'the README names the same least versions');
});
