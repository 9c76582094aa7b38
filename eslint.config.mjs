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
 * relative path that climbs out of its folder). The browser's code (components/, lib/client/)
 * reaches the server only through the HTTP contract in lib/contract/, which imports nothing
 * but zod and itself; the server never imports the browser's code; route handlers reach the
 * database only through lib/. Tests may reach anything they test.
 */
const path = (...parts) => new RegExp(`^(@/|(\\.\\./)+|\\./)(${parts.join('|')})(/|$)`).source;
const SERVER_ONLY = path('lib/(engine|turns|tools|decide|llm|server|context)', 'db');
const BROWSER = path('lib/client', 'components');
const forbid = (regex, message) => ({ regex, message });
const layerRules = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'lib/testing/**'];

export const LAYERS = [
  {
    name: 'the browser imports no server code',
    files: ['components/**/*.{ts,tsx}'],
    rules: layerRules(forbid(SERVER_ONLY, 'The browser reaches the server only through the contract (lib/contract) and the API.')),
  },
  {
    name: "the browser's library names what it imports from lib/ by the alias",
    files: ['lib/client/**/*.{ts,tsx}'],
    rules: layerRules(
      forbid(SERVER_ONLY, 'The browser reaches the server only through the contract (lib/contract) and the API.'),
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
  {
    name: 'the server imports no browser code',
    files: ['lib/**/*.{ts,tsx}', 'db/**/*.ts', 'app/api/**/*.ts', 'scripts/**/*.ts', 'instrumentation.ts', 'proxy.ts'],
    ignores: ['lib/client/**', 'lib/contract/**'],
    rules: layerRules(forbid(BROWSER, "The server never imports the browser's code.")),
  },
  {
    name: 'route handlers reach the database only through lib/',
    files: ['app/**/route.ts', 'app/**/route.tsx'],
    rules: layerRules(forbid(path('db'), 'A route handler reaches the database through lib/, never db/ itself.')),
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
