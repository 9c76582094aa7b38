/**
 * `npm run test:e2e`: builds the app, starts from an empty data folder, and runs the
 * Playwright specs in Debian's Chromium (set CHROMIUM_PATH if it lives elsewhere).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
fs.rmSync(path.join(root, '.e2e-data'), { recursive: true, force: true });
if (process.env.SKIP_BUILD !== '1') run('npx', ['next', 'build']);
const report = path.join(root, '.test-summary', 'e2e-report.json');
const result = spawnSync('npx', ['playwright', 'test', '--reporter=list,json', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
});
let line = `0 passed, 1 failed`;
try {
  const stats = (JSON.parse(fs.readFileSync(report, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } }).stats;
  line = `${stats.expected + stats.flaky} passed, ${stats.unexpected} failed`;
} catch {
  // no report: Playwright did not get to run the tests
}
fs.mkdirSync(path.join(root, '.test-summary'), { recursive: true });
fs.writeFileSync(path.join(root, '.test-summary', 'e2e.txt'), `${line}\n`);
console.log(`\ne2e: ${line}`);
process.exit(result.status ?? 1);
