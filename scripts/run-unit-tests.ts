/**
 * `npm test` (after the typecheck): every unit and API test (files named *.test.ts beside the
 * code), run by node's test runner with tsx. Node 20 does not expand globs itself, so the
 * files are listed here. Ends with a plain "N passed, N failed" line (also written to
 * .test-summary/unit.txt). The contract suite in e2e/contract needs a build and runs with
 * `npm run test:e2e`.
 *
 * The PostgreSQL tests (db/pg) run when TEST_DATABASE_URL names a server where they may make
 * databases of their own (CI sets it); without it they are skipped, and this says so plainly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dropDatabasesBeside, withTestDatabase } from '../db/pg/testing';
import { root, runNodeTests, writeSummary } from './node-tests';

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

/**
 * The tests that run a second time on PostgreSQL: those of the query families written once for
 * both engines, and the API suites over a whole Hearth. Left out: the real-model suite, which
 * tests the model server's slots and prompt cache (no storage of its own), and which was seen
 * once to miss a turn's decisions under load on PostgreSQL (docs/postgresql.md).
 */
const ON_BOTH_ENGINES = [
  ...['attachments', 'decisions', 'knowledge', 'library', 'messages', 'small-tables', 'threads', 'turns'].map(
    (name) => `db/queries/${name}.test.ts`,
  ),
  ...find('app/api').filter((file) => !file.endsWith('real-models.test.ts')),
  'lib/turns/supervisor/cluster.test.ts',
  'lib/models/shared-queue.test.ts',
].sort();

const only = process.argv.slice(2);
const files = only.length ? only : folders.flatMap(find).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const postgres = process.env.TEST_DATABASE_URL
  ? `PostgreSQL tests: run against the server TEST_DATABASE_URL names (${new URL(process.env.TEST_DATABASE_URL).host}).`
  : 'PostgreSQL tests: SKIPPED, because TEST_DATABASE_URL is not set. To run them, set it to a server where the tests may make databases, such as postgres://postgres@127.0.0.1:5432/postgres.';
console.log(postgres);
const counts = await runNodeTests(files);
if (process.env.TEST_DATABASE_URL && !only.length) {
  // The store's tests and the API suites a second time, on PostgreSQL: each test's library is a
  // schema (or a runtime's, a database) of its own beside this database, all dropped after.
  console.log(`\nThe store's tests and the API suites again, on PostgreSQL: ${ON_BOTH_ENGINES.length} files`);
  const onPostgres = await withTestDatabase(async (url) => {
    try {
      return await runNodeTests(ON_BOTH_ENGINES, { env: { HEARTH_TEST_STORE_URL: url } });
    } finally {
      await dropDatabasesBeside(url);
    }
  });
  counts.passed += onPostgres.passed;
  counts.failed += onPostgres.failed;
  counts.code ||= onPostgres.code;
}
console.log(`\n${postgres}`);
writeSummary('unit', counts);
process.exit(counts.code);
