import { cookieValue } from '@/lib/services/auth/cookies';
import { createHash, randomBytes } from 'node:crypto';

/**
 * Login sessions. The cookie holds a random token; the database keeps only its SHA-256, with
 * an expiry. Checking a session is one lookup by primary key.
 */

export const SESSION_COOKIE = 'hearth_session';

export type SessionStore = {
  insertSession(row: { id: string; createdAt: number; expiresAt: number }): void;
  sessionById(id: string): { expiresAt: number } | undefined;
  deleteSession(id: string): void;
  deleteExpiredSessions(now: number): void;
};

const idOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token as minted below: 43 base64url characters (32 random bytes). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class SessionBook {
  constructor(
    private readonly store: SessionStore,
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a session; answers the token for the cookie. */
  start(): { token: string; expiresAt: number } {
    const now = this.now();
    this.store.deleteExpiredSessions(now);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + this.lifetimeMs;
    this.store.insertSession({ id: idOf(token), createdAt: now, expiresAt });
    return { token, expiresAt };
  }

  valid(token: string | undefined | null): boolean {
    if (!token || !TOKEN.test(token)) return false;
    const row = this.store.sessionById(idOf(token));
    return Boolean(row && row.expiresAt > this.now());
  }

  end(token: string | undefined | null): void {
    if (token && TOKEN.test(token)) this.store.deleteSession(idOf(token));
  }
}

/** The session token in a Cookie header, if any. */
export function sessionTokenFrom(cookieHeader: string | null | undefined): string | undefined {
  return cookieValue(cookieHeader, SESSION_COOKIE);
}

/**
 * The Set-Cookie value: HttpOnly (no script can read it), SameSite=Strict (never sent by a
 * request another site starts), and Secure when the request came over https (directly or
 * through a reverse proxy that says so), where the browser would otherwise refuse it.
 */
export function sessionCookie(token: string, { maxAgeSeconds, secure }: { maxAgeSeconds: number; secure: boolean }): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function isHttps(request: Request): boolean {
  const forwarded = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https' || new URL(request.url).protocol === 'https:';
}
