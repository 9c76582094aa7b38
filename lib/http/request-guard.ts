import { authVerdict } from '@/lib/services/auth/session-check';
import { isLoopbackName } from '@/lib/services/auth/exposure';
import { isHttps } from '@/lib/services/auth/sessions';
import { HearthError } from '@/lib/shared/errors';
/**
 * Checks before any request reaches a route:
 *  - DNS rebinding: a page on evil.example whose name later resolves to 127.0.0.1 would be
 *    "same-origin" with Hearth. While Hearth listens on loopback, only loopback host names
 *    (and HEARTH_ALLOWED_HOSTS) are served.
 *  - Cross-site writes: a write (anything but GET/HEAD) is refused when the browser says it
 *    comes from another site (Sec-Fetch-Site) or its Origin names another host (or is the
 *    opaque "null" of a sandboxed frame or a data: page).
 *  - Body types: a write that carries a body must say it is JSON (or, on the upload and import
 *    routes, multipart or a file). The types an HTML form or a "simple" cross-site fetch can
 *    send without asking (text/plain, urlencoded, none at all) are refused, so a forgotten
 *    Origin check could still not be reached by a form on another site.
 */

export type GuardConfig = { listenHost: string; allowedHosts: readonly string[] };

export type GuardedRequest = {
  method: string;
  host: string | null;
  origin: string | null;
  /** The Sec-Fetch-Site header (browsers send it; other clients usually do not). */
  fetchSite?: string | null;
  contentType?: string | null;
  /** Whether the request declares a body (Content-Length above 0 or Transfer-Encoding). */
  hasBody?: boolean;
  /** The scheme the browser used: http, or https behind a TLS proxy (X-Forwarded-Proto). */
  scheme?: 'http' | 'https';
};

export type Refusal = { code: 'forbidden' | 'unsupported_type'; message: string };

/** The body types a route takes, and how to say so in a refusal. */
export type BodyTypes = { pattern: RegExp; name: string };
export const JSON_BODY: BodyTypes = { pattern: /^application\/json\s*(;|$)/i, name: 'application/json' };

/** The name in a Host header without its port; '' for anything that is not one host[:port]. */
function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/.exec(h);
  return m ? m[1] : '';
}

const isWrite = (method: string) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/** Why a request is refused, or null when it may go on. */
export function requestRefusal(req: GuardedRequest, config: GuardConfig, bodyTypes: BodyTypes = JSON_BODY): Refusal | null {
  const host = req.host ? hostnameOf(req.host) : '';
  const allowed = new Set(config.allowedHosts.map((h) => h.toLowerCase()));
  if (isLoopbackName(config.listenHost) || allowed.size > 0) {
    const ok = host !== '' && (isLoopbackName(host) || host === config.listenHost.toLowerCase() || allowed.has(host));
    if (!ok)
      return {
        code: 'forbidden',
        message: `Hearth does not answer to the host name "${host || '(none)'}". Add it to HEARTH_ALLOWED_HOSTS to allow it.`,
      };
  }
  if (!isWrite(req.method)) return null;
  const site = req.fetchSite?.toLowerCase();
  if (site && site !== 'same-origin' && site !== 'none')
    return { code: 'forbidden', message: `Writes from another site are refused (Sec-Fetch-Site: ${site}).` };
  if (req.origin === 'null')
    return { code: 'forbidden', message: 'Writes from an opaque origin (a sandboxed frame or a data: page) are refused.' };
  if (req.origin) {
    let origin: URL;
    try {
      origin = new URL(req.origin);
    } catch {
      return { code: 'forbidden', message: 'The request came from an origin that could not be read.' };
    }
    // Scheme, host and port: https://127.0.0.1:PORT is another origin than http://127.0.0.1:PORT.
    const scheme = req.scheme ?? 'http';
    if (origin.host.toLowerCase() !== (req.host ?? '').toLowerCase() || origin.protocol !== `${scheme}:`) {
      return { code: 'forbidden', message: `Writes from another site (${origin.origin}) are refused.` };
    }
  }
  if (req.hasBody && !bodyTypes.pattern.test(req.contentType ?? '')) {
    return {
      code: 'unsupported_type',
      message: `Send the body as ${bodyTypes.name}; "${(req.contentType ?? '').slice(0, 80) || 'no type'}" is refused.`,
    };
  }
  return null;
}

/** The guard's view of a Fetch API request. */
export function guardedRequest(request: Request): GuardedRequest {
  const h = request.headers;
  return {
    method: request.method,
    host: h.get('host') ?? new URL(request.url).host,
    origin: h.get('origin'),
    fetchSite: h.get('sec-fetch-site'),
    contentType: h.get('content-type'),
    hasBody: Number(h.get('content-length') ?? 0) > 0 || h.has('transfer-encoding'),
    scheme: isHttps(request) ? 'https' : 'http',
  };
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

export const NOT_LOGGED_IN = 'Log in first: this Hearth has a password.';
export const STARTING = 'Hearth is still starting; try again in a moment.';

/**
 * The checks every API route makes before it reads anything (lib/http/handle.ts's handle):
 * throws a HearthError (401, 403, 415 or 503) when the request must be refused.
 */
export async function guardRoute(request: Request, config: GuardConfig, bodyTypes: BodyTypes): Promise<void> {
  const why = requestRefusal(guardedRequest(request), config, bodyTypes);
  if (why) throw new HearthError(why.code, why.message);
  const verdict = await authVerdict(new URL(request.url).pathname, request.headers);
  if (verdict === 'login') throw new HearthError('unauthorized', NOT_LOGGED_IN);
  if (verdict === 'starting') throw new HearthError('starting', STARTING);
}
