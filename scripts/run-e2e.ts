/**
 * `npm run test:e2e`: builds the app, then runs the two suites that drive the built app
 * (`next start`), never the dev server:
 *  - the API contract suite (e2e/contract, node's test runner): statuses, errors and the turn
 *    lifecycle over HTTP, against servers it starts itself on temporary data folders;
 *  - the browser specs (e2e/*.spec.ts, Playwright) in Debian's Chromium (set CHROMIUM_PATH
 *    if it lives elsewhere than /usr/bin/chromium).
 * `--contract-only` or `--browser-only` runs one of them; other arguments go to Playwright.
 * SKIP_BUILD=1 reuses the existing build. Ends with one "N passed, N failed" line for both.
 */
import { spawnSync } from 'node:child_process';
import { nextEnv } from './next-env';
import fs from 'node:fs';
import path from 'node:path';
import { dropDatabasesBeside, withTestDatabase } from '../db/pg/testing';
import { root, runNodeTests, writeSummary, type Counts } from './node-tests';

const args = process.argv.slice(2);
const contract = !args.includes('--browser-only');
const browser = !args.includes('--contract-only');
const playwrightArgs = args.filter((a) => a !== '--browser-only' && a !== '--contract-only');

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (browser && !fs.existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
if (process.env.SKIP_BUILD !== '1') {
  const built = spawnSync('npx', ['next', 'build'], { cwd: root, stdio: 'inherit', env: nextEnv() });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const total: Counts = { passed: 0, failed: 0, code: 0 };
const add = (c: Counts) => {
  total.passed += c.passed;
  total.failed += c.failed;
  total.code ||= c.code;
};

if (contract)
  add(
    await runNodeTests(
      [
        'e2e/contract/contract.test.ts',
        'e2e/contract/security.test.ts',
        'e2e/contract/attacks.test.ts',
        'e2e/contract/gate.test.ts',
        'e2e/contract/resilience.test.ts',
        'e2e/contract/fuzz.test.ts',
        'e2e/contract/load.test.ts',
        'e2e/contract/large-import.test.ts',
        'e2e/contract/knowledge.test.ts',
      ],
      { concurrency: 1, timeoutMs: 120_000 },
    ),
  );

// The contract suites over a Hearth on PostgreSQL too, when a server is there to test against:
// each server keeps its libraries in a database of its own beside one made for the pass. Left
// out: the fuzzing and load suites (the same routes, at length), the attacks (request limits,
// not storage) and resilience (it stops processes and backs up SQLite's files).
if (contract && process.env.TEST_DATABASE_URL)
  add(
    await withTestDatabase(async (url) => {
      console.log('\nThe contract suites again, with Hearth on PostgreSQL');
      try {
        return await runNodeTests(
          [
            'e2e/contract/contract.test.ts',
            'e2e/contract/security.test.ts',
            'e2e/contract/gate.test.ts',
            'e2e/contract/large-import.test.ts',
            'e2e/contract/knowledge.test.ts',
            // Two `next start` on one database: a turn streamed through the other, taken over after a SIGKILL, handed over on SIGTERM.
            'e2e/contract/processes.test.ts',
          ],
          { concurrency: 1, timeoutMs: 120_000, env: { HEARTH_TEST_STORE_URL: url } },
        );
      } finally {
        await dropDatabasesBeside(url);
      }
    }),
  );

if (browser) {
  fs.rmSync(path.join(root, '.e2e-data'), { recursive: true, force: true });
  const report = path.join(root, '.test-summary', 'e2e-report.json');
  fs.rmSync(report, { force: true });
  const result = spawnSync('npx', ['playwright', 'test', '--reporter=list,json', ...playwrightArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...nextEnv(), PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  const counts: Counts = { passed: 0, failed: 1, code: result.status ?? 1 };
  try {
    const stats = (JSON.parse(fs.readFileSync(report, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } }).stats;
    Object.assign(counts, { passed: stats.expected + stats.flaky, failed: stats.unexpected });
  } catch {
    // no report: Playwright did not get to run the tests
  }
  if (counts.code !== 0 && counts.failed === 0) counts.failed = 1;
  add(counts);
}

writeSummary('e2e', total);
process.exit(total.code);
