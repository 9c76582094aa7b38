/**
 * `npm start`: checks the configuration (a bad value stops here with a one-line message),
 * builds the app when there is no build yet or the sources are newer than it, then serves it
 * with `next start` on HOST:PORT.
 */
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { exposureRefusal } from '../lib/auth/exposure';
import { isConfigError, parseConfig } from '../lib/config';
import { nextEnv } from './next-env';

let config;
try {
  config = parseConfig(process.env);
} catch (err) {
  if (isConfigError(err)) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

// Said before a long first build; the server checks the same again on the address it really binds.
const exposed = exposureRefusal({
  listening: [config.HOST],
  allowedHosts: config.HEARTH_ALLOWED_HOSTS.split(',')
    .map((h) => h.trim())
    .filter(Boolean),
  passwordSet: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH),
});
if (exposed) {
  console.error(exposed);
  process.exit(1);
}

const root = path.resolve(import.meta.dirname, '..');
const buildId = path.join(root, '.next', 'BUILD_ID');
// Next's own entry point in this node, not `npx next`: no npm layer in between that might not pass
// a signal on, so Ctrl+C and a service manager's SIGTERM reach the server itself.
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');
const sources = ['app', 'components', 'lib', 'db', 'public', 'next.config.mjs', 'package.json', 'instrumentation.ts'];

function newestMtime(p: string): number {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const builtAt = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
if (builtAt === 0 || Math.max(...sources.map(newestMtime)) > builtAt) {
  console.log(builtAt === 0 ? 'Hearth: building (first start)…' : 'Hearth: sources changed, rebuilding…');
  const built = spawnSync(process.execPath, [nextBin, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: nextEnv(),
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

console.log(
  `Hearth: serving on http://${config.HOST}:${config.PORT} (model server${config.LLAMA_URL.length > 1 ? 's' : ''} ${config.LLAMA_URL.join(', ')}, data in ${path.resolve(config.DATA_DIR)})`,
);
const server = spawn(process.execPath, [nextBin, 'start', '-H', config.HOST, '-p', String(config.PORT)], {
  cwd: root,
  stdio: 'inherit',
  env: nextEnv(),
});
// Passed on once: Ctrl+C in a terminal also reaches the server directly (one process group).
let forwarded = false;
const stop = (signal: NodeJS.Signals) => {
  if (forwarded) return;
  forwarded = true;
  server.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
// Whoever started Hearth went away without a word (npm killed outright, a closed terminal): the
// server stops too rather than live on orphaned. (`npm start` execs this script, so npm's own
// SIGTERM reaches it; without the exec, the shell between would die and leave it behind.)
const launcher = process.ppid;
setInterval(() => {
  if (process.ppid !== launcher) stop('SIGTERM');
}, 1000).unref();
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
