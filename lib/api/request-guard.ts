import { HearthError } from '@/lib/errors';
/**
 * Two checks before any request reaches a route, for an app with no login that listens on
 * the user's own machine:
 *  - DNS rebinding: a page on evil.example whose name later resolves to 127.0.0.1 would be
 *    "same-origin" with Hearth. While Hearth listens on loopback, only loopback host names
 *    (and HEARTH_ALLOWED_HOSTS) are served.
 *  - Cross-site writes: a write (anything but GET/HEAD) whose Origin names another host is
 *    refused, so another site cannot post into Hearth from the user's browser.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export type GuardConfig = { listenHost: string; allowedHosts: readonly string[] };

function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}

export function isLoopbackListen(host: string): boolean {
  return LOOPBACK.has(host) || /^127\./.test(host);
}

/** Why a request is refused, or null when it may go on. */
export function requestRefusal(req: { method: string; host: string | null; origin: string | null }, config: GuardConfig): string | null {
  const host = req.host ? hostnameOf(req.host) : '';
  const allowed = new Set(config.allowedHosts.map((h) => h.toLowerCase()));
  if (isLoopbackListen(config.listenHost) || allowed.size > 0) {
    const ok = LOOPBACK.has(host) || /^127\./.test(host) || host === config.listenHost.toLowerCase() || allowed.has(host);
    if (!ok) return `Hearth does not answer to the host name "${host || '(none)'}". Add it to HEARTH_ALLOWED_HOSTS to allow it.`;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.origin && req.origin !== 'null') {
    let originHost = '';
    try {
      originHost = new URL(req.origin).host.toLowerCase();
    } catch {
      return 'The request came from an origin that could not be read.';
    }
    if (originHost !== (req.host ?? '').toLowerCase()) return `Writes from another site (${originHost}) are refused.`;
  }
  return null;
}

/** The guard's settings from the environment (proxy.ts and the upload route, which the proxy does not see). */
export function guardConfigFromEnv(env: Record<string, string | undefined> = process.env): GuardConfig {
  return {
    listenHost: (env.HOST ?? '127.0.0.1').trim() || '127.0.0.1',
    allowedHosts: (env.HEARTH_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
  };
}

/**
 * The same guard for a route the proxy leaves alone because it streams its body (uploads,
 * imports): throws a 403 HearthError when the request must be refused.
 */
export function guardStreamingRoute(request: Request, config: GuardConfig): void {
  const host = request.headers.get('host') ?? new URL(request.url).host;
  const why = requestRefusal({ method: request.method, host, origin: request.headers.get('origin') }, config);
  if (why) throw new HearthError('forbidden', why);
}
