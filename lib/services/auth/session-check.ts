import { sessionTokenFrom } from './sessions';

/**
 * The one check every page and API route goes through when a password is set. The proxy
 * (proxy.ts) and the two streaming routes it does not see ask it; the runtime installs it
 * at start. It lives on globalThis because Next bundles the proxy, instrumentation and each
 * route apart, while they all run in one process.
 */

export type SessionCheck = {
  /** Whether a password is set (then every request outside PUBLIC_PATHS needs a session). */
  required: boolean;
  valid(token: string | undefined): boolean;
};

const key = Symbol.for('hearth.session-check');
type Holder = { [key]?: SessionCheck };

export function installSessionCheck(gate: SessionCheck): void {
  (globalThis as Holder)[key] = gate;
}

/** Whether the environment sets a password (known before the runtime has started). */
export function passwordConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.HEARTH_PASSWORD?.trim() || env.HEARTH_PASSWORD_HASH?.trim());
}

/** Paths open without a session: the login page and its API, and the static files the page needs. */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === '/login' ||
    pathname === '/api/auth/login' ||
    pathname === '/api/auth/logout' ||
    pathname === '/api/auth/session' ||
    pathname === '/favicon.svg' ||
    pathname.startsWith('/_next/static/')
  );
}

export type AuthVerdict = 'ok' | 'login' | 'starting';

/** Whether a request may go on, must log in first, or came before the runtime was ready. */
export function authVerdict(pathname: string, cookieHeader: string | null): AuthVerdict {
  if (isPublicPath(pathname)) return 'ok';
  const check = (globalThis as Holder)[key];
  // Fails closed: with a password set, nothing is served until the sessions can be checked.
  if (!check) return passwordConfigured() ? 'starting' : 'ok';
  if (!check.required) return 'ok';
  return check.valid(sessionTokenFrom(cookieHeader)) ? 'ok' : 'login';
}
