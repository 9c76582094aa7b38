import { exposureRefusal, listeningHosts } from '@/lib/services/auth/exposure';
import { getConfig, isConfigError } from '@/lib/shared/config';
import { installPeerStamp } from '@/lib/services/auth/peer';
import { getRuntime } from './runtime';
import { stopOnSignals } from './shutdown';

/**
 * Start-up: validates the configuration (a bad value stops the server with a one-line
 * message naming the key), refuses to run reachable from other machines without a password,
 * opens and migrates the database (a failed migration stops it and
 * loses nothing), and resumes turns that were running when the server last stopped.
 */
export async function startup(): Promise<void> {
  // Everything Hearth writes (the database, stored files, mcp.json, backups) is the owner's
  // alone: 0600 files, 0700 folders, whatever umask the shell had.
  process.umask(0o077);
  // Each request is stamped with the address its connection came from, for trusted-header login (lib/http/peer.ts).
  installPeerStamp();
  // Running turns are stored as interrupted (their words kept) before the process goes.
  stopOnSignals(async () => {
    const hearth = await getRuntime();
    const stopped = (await Promise.all(hearth.libraries().map((library) => library.turns.stopAll()))).flat();
    if (stopped.length) console.log(`Hearth: stopping; ${stopped.length} running turn(s) kept as interrupted.`);
  });
  try {
    const config = getConfig();
    const exposed = exposureRefusal({
      listening: listeningHosts(),
      allowedHosts: config.HEARTH_ALLOWED_HOSTS.split(',')
        .map((h) => h.trim())
        .filter(Boolean),
      passwordSet: Boolean(config.HEARTH_PASSWORD || config.HEARTH_PASSWORD_HASH) || (await (await getRuntime()).auth.required()),
    });
    if (exposed) {
      console.error(exposed);
      process.exit(1);
    }
  } catch (err) {
    if (isConfigError(err)) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const resume = async () => {
    try {
      let resumed = 0;
      let interrupted = 0;
      // Everyone's library is opened now, so each person's unfinished turns go on.
      for (const library of await (await getRuntime()).openAll()) {
        const done = await library.turns.resumeUnfinished();
        resumed += done.resumed.length;
        interrupted += done.interrupted.length;
      }
      if (resumed || interrupted) {
        console.log(`Hearth: resumed ${resumed} turn(s), marked ${interrupted} interrupted.`);
      }
    } catch (err) {
      console.error(`Hearth could not start: ${(err as Error).message}`);
      process.exit(1);
    }
  };
  // A resumed turn must find the tools it was using: the MCP servers' first connections are
  // waited for (at most 15 s) before turns resume; without any, turns resume at once.
  try {
    const { hub } = (await getRuntime()).toolServers;
    if (hub.connecting) void hub.settled(15_000).then(resume);
    else await resume();
  } catch (err) {
    console.error(`Hearth could not start: ${(err as Error).message}`);
    process.exit(1);
  }
}
