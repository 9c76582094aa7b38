/**
 * `npm start`: scripts/prepare-start.ts checks the configuration and builds when needed (with
 * tsx, in a process that then ends), then this launcher serves the app with `next start` and
 * stays only to pass signals on. It is plain JavaScript with Node's own modules, so what waits
 * beside the server is as small as a Node process can be (no TypeScript loader, no zod).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// Next's own entry point in this node, not `npx next`: no npm layer in between that might not pass
// a signal on, so Ctrl+C and a service manager's SIGTERM reach the server itself.
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

const prepare = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts', 'prepare-start.ts')], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});
let address = null;
prepare.on('message', (m) => (address = m));
// Ctrl+C while it builds reaches the build through the terminal; a SIGTERM is passed on.
const stopPreparing = () => prepare.kill('SIGTERM');
process.on('SIGTERM', stopPreparing);
const status = await new Promise((resolve) => prepare.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
process.removeListener('SIGTERM', stopPreparing);
if (status !== 0 || !address) process.exit(status || 1);

const server = spawn(process.execPath, [nextBin, 'start', '-H', address.host, '-p', String(address.port)], {
  cwd: root,
  stdio: 'inherit',
  // Next's telemetry off: Hearth reports nothing anywhere (scripts/next-env.ts).
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
});
// Passed on once: Ctrl+C in a terminal also reaches the server directly (one process group).
let forwarded = false;
const stop = (signal) => {
  if (forwarded) return;
  forwarded = true;
  server.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
// Whoever started Hearth went away without a word (npm killed outright, a closed terminal): the
// server stops too rather than live on orphaned. (`npm start` execs this script, so npm's own
// SIGTERM reaches it; without the exec, the shell between would die and leave it behind.)
const launcher = process.ppid;
setInterval(() => {
  if (process.ppid !== launcher) stop('SIGTERM');
}, 1000).unref();
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
