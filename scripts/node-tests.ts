/**
 * Runs test files with node's test runner under tsx (the react-server condition lets modules
 * that import 'server-only' load) and reads its closing counts. Shared by `npm test` and the
 * contract suite of `npm run test:e2e`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export type Counts = { passed: number; failed: number; code: number };

export function runNodeTests(
  files: string[],
  options: { concurrency?: number; timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<Counts> {
  const args = [
    '--conditions=react-server',
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    `--test-concurrency=${options.concurrency ?? 2}`,
  ];
  if (options.timeoutMs) args.push(`--test-timeout=${options.timeoutMs}`);
  const child = spawn(process.execPath, [...args, ...files], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
    env: { ...process.env, ...options.env, NODE_ENV: 'test' },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    out += chunk.toString();
  });
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      const passed = Number(/ℹ pass (\d+)/.exec(out)?.[1] ?? 0);
      // Cancelled tests (a promise left pending, a timeout) count as failed.
      const counted = Number(/ℹ fail (\d+)/.exec(out)?.[1] ?? 0) + Number(/ℹ cancelled (\d+)/.exec(out)?.[1] ?? 0);
      const failed = code !== 0 && counted === 0 ? 1 : counted;
      resolve({ passed, failed, code: code ?? 1 });
    }),
  );
}

/** Writes the plain "N passed, N failed" line CI adds up, and prints it. */
export function writeSummary(name: string, counts: Pick<Counts, 'passed' | 'failed'>): void {
  const line = `${counts.passed} passed, ${counts.failed} failed`;
  fs.mkdirSync(path.join(root, '.test-summary'), { recursive: true });
  fs.writeFileSync(path.join(root, '.test-summary', `${name}.txt`), `${line}\n`);
  console.log(`\n${name}: ${line}`);
}
