import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { makeDatabaseBeside } from '@/db/pg/testing';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';

/**
 * The built app as a user runs it: `next start` in a child process, on a free loopback port,
 * with its own temporary data folder. The contract suite starts it itself, so nothing
 * outside the suite (a dev server, an earlier run's data) can make it pass.
 */

const root = path.resolve(import.meta.dirname, '../..');

export type HearthServer = {
  url: string;
  dataDir: string;
  pid: number;
  /** Kills the process with this signal and waits for it to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
};

export function assertBuilt(): void {
  if (!fs.existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    throw new Error('No production build: run `npx next build` first (`npm run test:e2e` builds before it runs this suite).');
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How long `next start` may take to answer its first request on a loaded 2-core machine. */
const READY_TIMEOUT_MS = 60_000;

export type StartOptions = {
  /** The address to listen on (-H); loopback by default. */
  listen?: string;
  /** An existing data folder (a restart); a fresh temporary one by default. */
  dataDir?: string;
  port?: number;
};

/** The databases of this suite's servers in the pass on PostgreSQL, by their data folder (a restart finds its own). */
const databases = new Map<string, string>();

/**
 * In `npm run test:e2e`'s pass on PostgreSQL (HEARTH_TEST_STORE_URL, a database the runner makes
 * and drops), a server keeps its libraries in a database of its own beside that one.
 */
async function databaseFor(dataDir: string): Promise<Record<string, string>> {
  const passDatabase = process.env.HEARTH_TEST_STORE_URL;
  if (!passDatabase) return {};
  let url = databases.get(dataDir);
  if (!url) databases.set(dataDir, (url = await makeDatabaseBeside(passDatabase)));
  return { DATABASE_URL: url };
}

/** Starts `next start` without waiting for it: the child, its URL and its stderr so far. */
export async function spawnHearth(env: Record<string, string>, opts: StartOptions = {}) {
  assertBuilt();
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? makeTempDir('hearth-contract');
  const database = await databaseFor(dataDir);
  const listen = opts.listen ?? '127.0.0.1';
  // NODE_ENV as next start wants it (the test runner sets "test").
  const childEnv = {
    ...process.env,
    NODE_ENV: 'production' as const,
    // Hearth reports nothing anywhere: Next's telemetry off (scripts/next-env.ts).
    NEXT_TELEMETRY_DISABLED: '1',
    HOST: listen,
    PORT: String(port),
    DATA_DIR: dataDir,
    HEARTH_TIMEZONE: 'UTC',
    ...database,
    ...env,
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(root, 'node_modules/next/dist/bin/next'), 'start', '-H', listen, '-p', String(port)],
    {
      cwd: root,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // The server never outlives the suite, even when it ends without running its after hooks.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout?.resume();
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, dataDir, url: `http://127.0.0.1:${port}`, stderr: () => stderr, exit };
}

export async function startHearth(env: Record<string, string>, opts: StartOptions = {}): Promise<HearthServer> {
  const { child, url, stderr: readStderr, dataDir } = await spawnHearth(env, opts);
  const stderr = { toString: readStderr };
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`next start exited (${code}) before it was ready:\n${stderr}`))),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const ready = await Promise.race([
      // Any answer but "still starting" (a password makes this one 401).
      fetch(`${url}/api/threads?limit=1`).then(
        (r) => r.status !== 503,
        () => false,
      ),
      exited,
    ]);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`next start did not answer within ${READY_TIMEOUT_MS / 1000} s:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    pid: child.pid!,
    stderr: readStderr,
    kill: (signal: NodeJS.Signals) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
