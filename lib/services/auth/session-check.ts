import type { Person } from './people';
import { sessionTokenFrom } from './sessions';

/**
 * The one check every page and API route goes through when a password is set. The proxy
 * (proxy.ts) and the two streaming routes it does not see ask it; the runtime installs it
 * at start. It lives on globalThis because Next bundles the proxy, instrumentation and each
 * route apart, while they all run in one process.
 */

export type SessionCheck = {
  /** Whether anyone can log in with a password (then every request outside PUBLIC_PATHS needs a session). */
  required(): Promise<boolean>;
  /** The person a session token is, or null. */
  person(token: string | undefined): Promise<Person | null>;
  /** Who a request is when no login is needed: the owner (null before there is one). */
  owner(): Promise<Person | null>;
  /** The person a trusted reverse proxy names in its header (lib/services/auth/trusted-header.ts), or null. */
  vouched(headers: Headers): Promise<Person | null>;
};

const key = Symbol.for('hearth.session-check');
type Holder = { [key]?: SessionCheck };

export function installSessionCheck(gate: SessionCheck): void {
  (globalThis as Holder)[key] = gate;
}

/** Paths open without a session: the login page and its API, and the static files the page needs. */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === '/login' ||
    pathname === '/api/auth/login' ||
    pathname === '/api/auth/logout' ||
    pathname === '/api/auth/session' ||
    // Single sign-on: its beginning and the provider's way back.
    pathname === '/api/auth/oidc/login' ||
    pathname === '/api/auth/oidc/callback' ||
    pathname === '/signed-in' ||
    // An invitation's page and its API: the invited person has no session yet (the token is the key).
    pathname.startsWith('/invite/') ||
    pathname.startsWith('/api/invites/') ||
    pathname === '/favicon.svg' ||
    pathname.startsWith('/_next/static/')
  );
}

export type AuthVerdict = 'ok' | 'login' | 'starting';

/** Whether a request may go on, must log in first, or came before the runtime was ready. */
export async function authVerdict(pathname: string, headers: Headers): Promise<AuthVerdict> {
  if (isPublicPath(pathname)) return 'ok';
  const check = (globalThis as Holder)[key];
  // Fails closed: nothing is served until the sessions can be checked (the people who may log
  // in are in the database, so before it is open no one can tell whether a login is needed).
  if (!check) return 'starting';
  if (!(await check.required())) return 'ok';
  return (await loggedIn(check, headers)) ? 'ok' : 'login';
}

/**
 * The person a trusted proxy names, else a session's: what the proxy says wins, so a browser
 * still holding someone else's session (a shared computer) is not served their library.
 */
const loggedIn = async (check: SessionCheck, headers: Headers) =>
  (await check.vouched(headers)) ?? (await check.person(sessionTokenFrom(headers.get('cookie'))));

/**
 * The person a request is: from its session (or a trusted proxy's header) when a login is
 * needed; the owner when none is (one person on loopback, as before accounts). Null: no one
 * (the handler answers 401).
 */
export async function requestPerson(headers: Headers): Promise<Person | null> {
  const check = (globalThis as Holder)[key];
  if (!check) return null;
  if (!(await check.required())) return check.owner();
  return loggedIn(check, headers);
}
