/** Runs once when the Next server starts; the work is Node-only (see lib/server/startup.ts). */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startup } = await import('./lib/server/startup');
    startup();
  }
}
