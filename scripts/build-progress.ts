/**
 * `npm start`'s build, said as it goes: what it is doing and about how long it takes before it
 * starts, that it is still going every so often (Next prints nothing for a minute or more while
 * it compiles), and how long it took.
 */

/** How often a long build says it is still going. */
export const PROGRESS_EVERY_MS = 15_000;

export function buildAnnouncement(first: boolean): string {
  return first
    ? 'Hearth: building the app for this machine (first start only). This takes one to four minutes, depending on the machine; later starts take seconds.'
    : 'Hearth: the sources changed since the last build, building again (one to four minutes)…';
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** Waits for the build, saying every `everyMs` how long it has run; its exit code. */
export async function buildWithProgress(
  build: { once(event: 'exit', listener: (code: number | null) => void): unknown },
  log: (line: string) => void,
  { everyMs = PROGRESS_EVERY_MS, now = Date.now } = {},
): Promise<number> {
  const started = now();
  const progress = setInterval(() => log(`Hearth: still building, ${seconds(now() - started)} so far…`), everyMs);
  const status = await new Promise<number>((resolve) => build.once('exit', (code) => resolve(code ?? 1)));
  clearInterval(progress);
  if (status === 0) log(`Hearth: built in ${seconds(now() - started)}.`);
  return status;
}
