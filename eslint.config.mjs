// ESLint: typescript-eslint's recommended rules, the type-aware rules for promises, the React
// hooks rules, Next's own rules, and the import rules between the layers (below).
// Formatting is Prettier's (npm run format); nothing here argues with it.
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The import rules between the layers, by the path an import names (the `@/` alias, or a
 * relative path that climbs out of its folder). Each layer of lib/ has an allow-list: the
 * folders it may import from (docs/README.md draws them). Inside lib/ a module names another
 * folder by the alias, never by a climbing relative path, so no import slips past its list.
 * The browser's code (components/, lib/client/) reaches the server only through the HTTP
 * contract in lib/contract/, which imports nothing but zod and itself; the server never
 * imports the browser's code; route handlers reach the database only through lib/; db/
 * imports nothing of lib/ but the contract and the shared foundations. Tests may reach
 * anything they test.
 */
const path = (...parts) => new RegExp(`^(@/|(\\.\\./)+|\\./)(${parts.join('|')})(/|$)`).source;
const BROWSER = path('lib/client', 'components');
const forbid = (regex, message) => ({ regex, message });
/** Every in-repository import names one of these folders (by the alias). */
const onlyFrom = (allowed, message) => forbid(`^@/(?!(${allowed.join('|')})(/|$))`, message);
const NO_CLIMBING = forbid('^\\.\\./', "Out of this folder, import by '@/…', so the layer's allow-list sees where the import goes.");
const layerRules = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
/** The query families still written for SQLite alone (db/queries/): PostgreSQL's are in db/pg/. */
const SQLITE_ONLY_FAMILIES = ['fts', 'knowledge-search', 'search', 'vector-index'];
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'lib/dev/testing/**'];

/** What each server layer of lib/ may import, bottom to top. */
const LIB_LAYERS = {
  shared: ['lib/contract', 'lib/shared'],
  models: ['lib/contract', 'lib/shared', 'lib/models'],
  data: ['db', 'lib/contract', 'lib/shared', 'lib/models', 'lib/data'],
  tools: ['lib/contract', 'lib/shared', 'lib/models', 'lib/data', 'lib/tools'],
  turns: ['lib/contract', 'lib/shared', 'lib/models', 'lib/data', 'lib/tools', 'lib/turns'],
  services: ['db', 'lib/contract', 'lib/shared', 'lib/models', 'lib/data', 'lib/tools', 'lib/turns', 'lib/services'],
  http: ['lib/contract', 'lib/shared', 'lib/turns', 'lib/services', 'lib/http'],
};
/** What the browser may import: the contract, its own library, and the shared foundations that hold no server code. */
const BROWSER_SAFE = ['lib/contract', 'lib/client', 'lib/shared(?!/config|/markdown/html)', 'components'];
const BROWSER_ONLY = 'The browser reaches the server only through the contract (lib/contract) and the API.';

export const LAYERS = [
  {
    name: 'the browser imports no server code',
    files: ['components/**/*.{ts,tsx}'],
    rules: layerRules(onlyFrom(BROWSER_SAFE, BROWSER_ONLY), forbid('^(\\.\\./)+(lib|db)(/|$)', BROWSER_ONLY)),
  },
  {
    name: "the browser's library names what it imports from lib/ by the alias",
    files: ['lib/client/**/*.{ts,tsx}'],
    rules: layerRules(
      onlyFrom(BROWSER_SAFE, BROWSER_ONLY),
      forbid('^\\.\\./', "Out of lib/client, import by '@/…': a relative path could reach the server's code unseen."),
    ),
  },
  {
    name: 'the contract imports only zod and itself',
    files: ['lib/contract/**/*.ts'],
    rules: layerRules(
      forbid('^(?!zod$|\\./|@/lib/contract/)', 'The contract imports only zod and its own modules: both sides share it, the browser too.'),
    ),
  },
  ...Object.entries(LIB_LAYERS).map(([layer, allowed]) => ({
    name: `lib/${layer} imports only from the layers below it`,
    files: [`lib/${layer}/**/*.{ts,tsx,mjs}`],
    rules: layerRules(
      onlyFrom(allowed, `lib/${layer} imports only from ${allowed.join(', ')} (eslint.config.mjs, docs/README.md).`),
      NO_CLIMBING,
    ),
  })),
  {
    name: 'db/ imports of lib/ only the contract and the shared foundations',
    files: ['db/**/*.ts'],
    rules: layerRules(
      forbid(
        '^(@/|(\\.\\./)+)lib/(?!contract/|shared/)',
        'db/ imports of lib/ only lib/contract and lib/shared: its row types are in db/rows.ts.',
      ),
      forbid(BROWSER, "The server never imports the browser's code."),
    ),
  },
  {
    name: "the query families written once for both engines use only what both engines' drizzle has",
    files: ['db/queries/*.ts'],
    ignores: ['db/queries/*.test.ts', ...SQLITE_ONLY_FAMILIES.map((name) => `db/queries/${name}.ts`)],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(all|get|run)$/][arguments.length=0]',
          message:
            "SQLite's synchronous .all(), .get() and .run() are not PostgreSQL's: await the query, read it with first() or changed() (db/engine.ts).",
        },
        {
          selector: "CallExpression[callee.property.name='forEach'] > ArrowFunctionExpression[async=true]",
          message:
            'forEach awaits nothing: its writes would run outside the transaction and their failures be lost. Use for … of with await.',
        },
        {
          selector: 'MemberExpression[property.name=/^(changes|lastInsertRowid)$/]',
          message: "A write's result differs between the engines: read how many rows it changed with changed() (db/engine.ts).",
        },
        {
          selector: "MemberExpression[property.name='$client']",
          message: "A family written for both engines reaches no engine's own client.",
        },
      ],
    },
  },
  {
    name: 'the server imports no browser code',
    files: ['lib/dev/**/*.{ts,tsx}', 'app/api/**/*.ts', 'scripts/**/*.ts', 'instrumentation.ts', 'proxy.ts'],
    ignores: ['app/**/route.ts'],
    rules: layerRules(forbid(BROWSER, "The server never imports the browser's code.")),
  },
  {
    name: 'route handlers reach the database only through lib/',
    files: ['app/**/route.ts', 'app/**/route.tsx'],
    rules: layerRules(
      forbid(path('db'), 'A route handler reaches the database through lib/, never db/ itself.'),
      forbid(BROWSER, "The server never imports the browser's code."),
    ),
  },
].map(({ ignores = [], ...layer }) => ({ ...layer, ignores: [...ignores, ...TESTS] }));

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      'reports/',
      '.stryker-tmp/',
      'test-results/',
      'playwright-report/',
      'data/',
      'data-fake/',
      '.e2e-data/',
      'eval-results/',
      'next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mjs,js}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // An unused name is an error unless it says so with a leading underscore (`{ turnId: _t, ...rest }`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Type-aware: detached work is everywhere here, so a promise nobody awaits, catches or marks
    // with `void` is an error. node:test's test() and friends are awaited by the runner.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
            },
          ],
        },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  ...LAYERS,
  {
    files: ['components/**/*.tsx', 'components/**/*.ts', 'app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
      // The rules of hooks themselves. The plugin's React Compiler rules (refs, purity,
      // set-state-in-effect, …) judge code for the compiler to memoise; Hearth does not use it.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
