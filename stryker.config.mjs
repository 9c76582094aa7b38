/**
 * Mutation testing (`npm run test:mutation`): StrykerJS changes the code one small way at a
 * time (a > becomes >=, a string empties, a branch flips) and runs the unit and API tests that
 * cover the change; a mutant no test notices is a gap. The folders of the engine, the decide
 * steps, the tools, the context, the turns and the database queries are mutated.
 * Incremental: a second run only tests what changed since the first.
 */
const mutate = (process.env.MUTATE ?? 'lib/engine,lib/decide,lib/tools,lib/context,lib/turns,db/queries')
  .split(',')
  .map((p) => (p.endsWith('.ts') ? p : `${p}/**/*.ts`));

export default {
  testRunner: 'tap',
  tap: {
    testFiles: ['lib/**/*.test.ts', 'db/**/*.test.ts', 'app/api/*.test.ts'],
    nodeArgs: ['--conditions=react-server', '--import', 'tsx', '-r', '{{hookFile}}'],
  },
  coverageAnalysis: 'perTest',
  mutate: [...mutate, '!**/*.test.ts', '!lib/engine/deferral-corpus.ts', '!lib/engine/deferral-heldout.ts'],
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  ignorePatterns: ['.next', 'docs', 'eval-results', 'backups', 'data', 'data-fake', '.e2e-data', 'test-results', 'reports', '.test-summary'],
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 20000,
  tempDirName: '.stryker-tmp',
};
