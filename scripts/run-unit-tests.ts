/**
 * `npm test` (after the typecheck): every unit and API test (files named *.test.ts beside the
 * code), run by node's test runner with tsx. Node 20 does not expand globs itself, so the
 * files are listed here. The react-server condition lets modules that import 'server-only'
 * load. Ends with a plain "N passed, N failed" line (also written to test-results/).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const folders = ['lib', 'db', 'app', 'e2e/double', 'scripts'];

function find(dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : find(rel);
    return e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

const only = process.argv.slice(2);
const files = only.length ? only : folders.flatMap(find).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const child = spawn(
  process.execPath,
  ['--conditions=react-server', '--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
  { cwd: root, stdio: ['inherit', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'test' } },
);
let out = '';
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  out += chunk.toString();
});
child.on('exit', (code) => {
  const passed = Number(/ℹ pass (\d+)/.exec(out)?.[1] ?? 0);
  // Cancelled tests (a promise left pending, a timeout) count as failed.
  const counted = Number(/ℹ fail (\d+)/.exec(out)?.[1] ?? 0) + Number(/ℹ cancelled (\d+)/.exec(out)?.[1] ?? 0);
  const failed = code !== 0 && counted === 0 ? 1 : counted;
  const line = `${passed} passed, ${failed} failed`;
  fs.mkdirSync(path.join(root, '.test-summary'), { recursive: true });
  fs.writeFileSync(path.join(root, '.test-summary', 'unit.txt'), `${line}\n`);
  console.log(`\nunit: ${line}`);
  process.exit(code ?? 1);
});
