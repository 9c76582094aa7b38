import { getConfig, isConfigError } from '@/lib/config';
import { getRuntime } from './runtime';

/**
 * Start-up: validates the configuration (a bad value stops the server with a one-line
 * message naming the key), opens and migrates the database (a failed migration stops it and
 * loses nothing), and resumes turns that were running when the server last stopped.
 */
export function startup(): void {
  try {
    getConfig();
  } catch (err) {
    if (isConfigError(err)) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  try {
    const { turns } = getRuntime();
    const { resumed, interrupted } = turns.resumeUnfinished();
    if (resumed.length || interrupted.length) {
      console.log(`Hearth: resumed ${resumed.length} turn(s), marked ${interrupted.length} interrupted.`);
    }
  } catch (err) {
    console.error(`Hearth could not start: ${(err as Error).message}`);
    process.exit(1);
  }
}
