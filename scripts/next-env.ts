/**
 * The environment every Next command Hearth runs gets (build, start, dev, the tests' servers):
 * Next's telemetry off, because Hearth runs on the user's machine and reports nothing anywhere.
 */
export function nextEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
}
