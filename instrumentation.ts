/** Runs once when the Next server starts; the work is Node-only (see lib/services/startup.ts). */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startup } = await import('./lib/services/startup');
    await startup();
  }
}
