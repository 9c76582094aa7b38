/**
 * Hearth stopping (Ctrl+C, `docker stop`, a service manager's SIGTERM): the live streams a page
 * holds open (a turn's events, the library's updates) end at once, so the server's graceful
 * close is not kept waiting by them and the process exits (without this it stayed until every
 * tab was closed). Shared on globalThis by value: the instrumentation and each route are bundled
 * apart but run in one process.
 */

const key = Symbol.for('hearth.shutdown');
const stopping = Symbol.for('hearth.shutdown.begun');
type Holder = { [key]?: AbortController; [stopping]?: boolean };

/** Aborted once Hearth has been asked to stop. */
export function shutdownSignal(): AbortSignal {
  const holder = globalThis as Holder;
  holder[key] ??= new AbortController();
  return holder[key].signal;
}

/**
 * Stops what runs, then ends the live streams: called on SIGINT and SIGTERM (lib/services/startup.ts).
 * `stopWork` runs first, so a page still connected hears why its turn ended before its stream closes.
 */
export async function beginShutdown(stopWork?: () => Promise<void> | void): Promise<void> {
  const holder = globalThis as Holder;
  if (holder[key]?.signal.aborted || holder[stopping]) return;
  holder[stopping] = true;
  try {
    await stopWork?.();
  } catch (err) {
    console.error(`Hearth: while stopping: ${(err as Error).message}`);
  }
  holder[key] ??= new AbortController();
  holder[key].abort();
}

/** Stops Hearth on SIGINT and SIGTERM: work stops and the streams end first, then Next's own handler closes the server. */
export function stopOnSignals(stopWork: () => Promise<void> | void): void {
  // Next's own handler closes the server meanwhile, waiting for open requests (these streams) to end.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void beginShutdown(stopWork));
}
