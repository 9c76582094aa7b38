import path from 'node:path';

/**
 * The import rules that keep the two sides of the wire apart. The browser's code (components/,
 * lib/client/) reaches the server only through the HTTP contract in lib/contract/; the server
 * never imports the browser's code; route handlers reach the database only through lib/.
 * Checked over the whole tree by boundaries.test.ts.
 */

export type Rule = { name: string; applies: (file: string) => boolean; forbids: (target: string) => boolean };

const under =
  (...dirs: string[]) =>
  (p: string) =>
    dirs.some((d) => p === d || p.startsWith(`${d}/`));
const isTest = (p: string) => /\.test\.tsx?$/.test(p) || p.startsWith('e2e/') || p.startsWith('lib/testing/');

const browserSide = under('components', 'lib/client');
const serverOnly = under('lib/engine', 'lib/turns', 'lib/tools', 'lib/decide', 'lib/llm', 'lib/server', 'lib/context', 'db');

export const RULES: readonly Rule[] = [
  { name: 'the browser imports no server code', applies: browserSide, forbids: serverOnly },
  { name: 'the contract imports neither side', applies: under('lib/contract'), forbids: (t) => serverOnly(t) || browserSide(t) },
  {
    name: 'the server imports no browser code',
    applies: (f) => !browserSide(f) && !(f.startsWith('app/') && !f.startsWith('app/api/')) && !f.startsWith('lib/contract/'),
    forbids: under('lib/client', 'components'),
  },
  { name: 'route handlers reach the database only through lib/', applies: (f) => /^app\/.*\/route\.tsx?$/.test(f), forbids: under('db') },
];

/** The repository paths (without extension) a file's static and dynamic imports name; packages are left out. */
export function importsOf(file: string, source: string): string[] {
  const targets: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;
  for (const [, spec] of source.matchAll(pattern)) {
    let target: string | null = null;
    if (spec.startsWith('@/')) target = spec.slice(2);
    else if (spec.startsWith('.')) target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
    if (target !== null) targets.push(target.replace(/\.(tsx?|m?js)$/, ''));
  }
  return targets;
}

export type Violation = { rule: string; file: string; imports: string };

export function violations(files: ReadonlyMap<string, string>, rules: readonly Rule[] = RULES): Violation[] {
  const found: Violation[] = [];
  for (const [file, source] of files) {
    if (isTest(file)) continue; // tests may reach anything they test
    for (const rule of rules) {
      if (!rule.applies(file)) continue;
      for (const target of importsOf(file, source)) if (rule.forbids(target)) found.push({ rule: rule.name, file, imports: target });
    }
  }
  return found;
}
