/**
 * Mutation testing (`npm run test:mutation`): StrykerJS changes the code one small way at a
 * time (a > becomes >=, a string empties, a branch flips) and runs the unit and API tests that
 * cover the change; a mutant no test notices is a gap. The folders of the engine, the decide
 * steps, the tools, the context, the turns and the database queries are mutated.
 * Incremental: a second run only tests what changed since the first.
 */
import fs from 'node:fs';

const mutate = (process.env.MUTATE ?? 'lib/turns/engine,lib/turns/decide,lib/tools,lib/turns/context,lib/turns/supervisor,db/queries')
  .split(',')
  // A file, a file's lines in Stryker's own form (lib/services/library/import.ts:134-227), or a folder.
  .map((p) => (/\.ts(:\d+-\d+)?$/.test(p) ? p : `${p}/**/*.ts`));

// The checker type-checks the mutated code and what it imports, not what depends on it: each
// check re-checks every dependent of the mutated file in the program, and db/queries or
// lib/tools have dependents in every folder (a lib/tools run spent most of its time checking
// lib/turns/engine and lib/turns/supervisor). A mutant that only breaks a dependent's types then runs as
// JavaScript, where the tests judge it like any other. Written per run, beside tsconfig.json
// (reports/ is not copied into Stryker's sandbox); git ignores it.
const checkedConfig = 'tsconfig.mutation.run.json';
const checkedFiles = mutate.map((p) => p.replace(/:\d+-\d+$/, ''));
fs.writeFileSync(checkedConfig, `${JSON.stringify({ extends: './tsconfig.mutation.json', include: checkedFiles }, null, 2)}\n`);

// MUTATION_TESTS narrows the tests a run may use (comma-separated globs). Fewer tests can only
// catch fewer mutants, so a narrowed run's score is a lower bound of the whole suite's; it makes a
// folder's run fit in a stop on 2 cores, since a mutant of module-level code (a "static" one, run
// once at import) must run every test file there is.
const testFiles = (process.env.MUTATION_TESTS ?? 'lib/**/*.test.ts,db/**/*.test.ts,app/api/*.test.ts').split(',');

export default {
  testRunner: 'tap',
  tap: {
    testFiles,
    nodeArgs: ['--conditions=react-server', '--import', 'tsx', '-r', '{{hookFile}}'],
  },
  coverageAnalysis: 'perTest',
  mutate: [...mutate, '!**/*.test.ts'],
  checkers: ['typescript'],
  tsconfigFile: checkedConfig,
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  ignorePatterns: [
    '.next',
    'docs',
    'eval-results',
    'backups',
    'data',
    'data-fake',
    '.e2e-data',
    'test-results',
    'reports',
    '.test-summary',
  ],
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // One checker and one test runner, then two runners once checking is done: one process a core,
  // so a slow machine does not turn slow tests into false timeouts (a timeout counts as caught).
  concurrency: 2,
  timeoutMS: 10000,
  timeoutFactor: 3,
  tempDirName: '.stryker-tmp',
};
