/**
 * The load part of `npm run bench`: the built app (`next start`, built first when there is no
 * build) against the double streaming its answers, 50 clients over 10 threads (e2e/load/load.ts).
 */
import { spawnSync } from 'node:child_process';
import { nextEnv } from './next-env';
import fs from 'node:fs';
import path from 'node:path';
import { memoryGrowth, runLoad, startLoadTarget } from '../e2e/load/load';

/** Builds the app when there is no build yet: the bench measures the production server. */
export function ensureBuilt(): void {
  const root = path.resolve(import.meta.dirname, '..');
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    const built = spawnSync('npx', ['next', 'build'], { cwd: root, stdio: 'inherit', env: nextEnv() });
    if (built.status !== 0) throw new Error('next build failed');
  }
}

export async function measureLoad(seconds: number, { clients = 50, threads = 10 }: { clients?: number; threads?: number } = {}) {
  ensureBuilt();
  const { double, hearth } = await startLoadTarget();
  try {
    const result = await runLoad({ url: hearth.url, pid: hearth.pid, clients, threads, seconds });
    return { ...result, memory: memoryGrowth(result.rssMb) };
  } finally {
    await hearth.stop();
    await double.close();
  }
}
