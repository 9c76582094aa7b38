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
  // Running turns are handed over to another Hearth process on the same database, or, with none
  // (or on SQLite), stored as interrupted (their words kept) before the process goes.
  stopOnSignals(async () => {
    const hearth = await getRuntime();
    const ended = await Promise.all(hearth.libraries().map((library) => library.turns.handOver()));
    const handedOver = ended.flatMap((e) => e.handedOver).length;
    const stopped = ended.flatMap((e) => e.stopped).length;
    if (handedOver) console.log(`Hearth: stopping; ${handedOver} running turn(s) handed over to another Hearth process.`);
    if (stopped) console.log(`Hearth: stopping; ${stopped} running turn(s) kept as interrupted.`);
    // The slots its turns held are given back in the shared queue before it goes, not when they lapse.
    await hearth.models.settled();
    await hearth.signals?.close();
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
  const takeOverLapsed = async () => {
    try {
      for (const library of await (await getRuntime()).openAll()) {
        const taken = await library.turns.takeOver();
        if (taken.length) console.log(`Hearth: took over ${taken.length} turn(s) from a Hearth process that stopped.`);
      }
    } catch (err) {
      console.error(`Hearth: could not look for turns to take over: ${(err as Error).message}`);
    }
  };
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
      const hearth = await getRuntime();
      // Among several processes: turns whose process died are taken over once their leases lapse.
      if (hearth.signals) {
        setInterval(() => void takeOverLapsed(), hearth.config.HEARTH_TURN_LEASE_MS / 2).unref();
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
