/**
 * The first half of `npm start` (scripts/start.mjs runs it before the server): checks the
 * configuration (a bad value stops here with a one-line message), and builds the app when
 * there is no build yet or the sources are newer than it, saying what it does and for how
 * long. Then it hands the launcher the address to serve on and ends, so nothing of it (tsx,
 * zod, the configuration code) stays in memory beside the server.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { mainLibraryHasAccounts } from '../db/has-accounts';
import { exposureRefusal } from '../lib/services/auth/exposure';
import { isConfigError, parseConfig } from '../lib/shared/config';
import { buildAnnouncement, buildWithProgress } from './build-progress';
import { nextEnv } from './next-env';

let config: ReturnType<typeof parseConfig>;
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
  passwordSet: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH) || (await mainLibraryHasAccounts(config)),
});
if (exposed) {
  console.error(exposed);
  process.exit(1);
}

const root = path.resolve(import.meta.dirname, '..');
const buildId = path.join(root, '.next', 'BUILD_ID');
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
  console.log(buildAnnouncement(builtAt === 0));
  // Type-checking is left to `npm test` and CI: it adds most of a minute and finds nothing in a
  // checked-out release (next.config.mjs reads this).
  const build = spawn(process.execPath, [nextBin, 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...nextEnv(), HEARTH_SKIP_TYPECHECK: '1' },
  });
  const status = await buildWithProgress(build, (line) => console.log(line));
  if (status !== 0) process.exit(status);
}

console.log(
  `Hearth: serving on http://${config.HOST}:${config.PORT} (model server${config.LLAMA_URL.length > 1 ? 's' : ''} ${config.LLAMA_URL.join(', ')}, data in ${path.resolve(config.DATA_DIR)})`,
);
// The launcher (scripts/start.mjs) starts the server on this address once this process has ended.
process.send?.({ host: config.HOST, port: config.PORT });
process.disconnect?.();
