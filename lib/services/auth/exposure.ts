import net from 'node:net';

/**
 * A loopback host name, exactly: `localhost`, `[::1]`, or an IPv4 literal in 127.0.0.0/8
 * written as a browser writes one (four decimal parts). Nothing that merely starts like one
 * ("127.attacker.com", "127.0.0.1.nip.io", "127.0.0.1@evil.com"): those are names an attacker
 * points at 127.0.0.1 to rebind.
 */
export function isLoopbackName(name: string): boolean {
  const h = name.toLowerCase();
  if (h === 'localhost' || h === '[::1]' || h === '::1') return true;
  return net.isIPv4(h) && h.split('.')[0] === '127';
}

/**
 * Hearth refuses to start reachable from other machines without a password. "Reachable"
 * means listening on any address other than loopback (0.0.0.0, a LAN address, or no -H at
 * all, which is every interface), or HEARTH_ALLOWED_HOSTS naming other host names (a reverse
 * proxy or a LAN name brings other machines' requests in, even to a loopback listener).
 */
export function exposureRefusal({
  listening,
  allowedHosts,
  passwordSet,
}: {
  listening: readonly string[];
  allowedHosts: readonly string[];
  passwordSet: boolean;
}): string | null {
  if (passwordSet) return null;
  const open = listening.filter((h) => !isLoopbackName(h.replace(/^\[|\]$/g, '').replace(/^::ffff:/i, '')));
  if (open.length) {
    return `Hearth refuses to listen on ${open.join(', ')} without a password: anyone who can reach that address could read every conversation. Set HEARTH_PASSWORD (or HEARTH_PASSWORD_HASH from \`npm run hash-password\`), add the owner with \`npm run users -- add NAME --role owner\`, or listen on 127.0.0.1 only.`;
  }
  if (allowedHosts.length) {
    return `HEARTH_ALLOWED_HOSTS (${allowedHosts.join(', ')}) lets other machines reach Hearth, so it needs a password: set HEARTH_PASSWORD (or HEARTH_PASSWORD_HASH from \`npm run hash-password\`), or add the owner with \`npm run users -- add NAME --role owner\`.`;
  }
  return null;
}

/**
 * The addresses this process listens on. `next start` opens its port before it loads the
 * app, so the server's own sockets are the authority; the -H flag is the fallback (no flag
 * means every interface).
 */
export function listeningHosts(argv: readonly string[] = process.argv): string[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  const bound = handles
    .filter((h): h is net.Server => h instanceof net.Server && h.listening)
    .map((s) => s.address())
    .filter((a): a is net.AddressInfo => typeof a === 'object' && a !== null)
    .map((a) => a.address);
  if (bound.length) return [...new Set(bound)];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if ((a === '-H' || a === '--hostname') && argv[i + 1]) return [argv[i + 1]];
    if (a.startsWith('--hostname=')) return [a.slice('--hostname='.length)];
  }
  return ['0.0.0.0'];
}
