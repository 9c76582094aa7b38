import { cookieValue } from '@/lib/services/auth/cookies';
import { createHash, randomBytes } from 'node:crypto';
import type { sessionQueries } from '@/db/queries/sessions';
import type { SessionInfo } from '@/lib/contract/responses';
import type { Port } from '@/lib/shared/awaitable';
import type { Person } from './people';

/**
 * Login sessions, each one person's. The cookie holds a random token; the database keeps only
 * its SHA-256, with an expiry. Checking a session is one lookup by primary key, joined to the
 * person: a removed or disabled person's session is over at once.
 */

export const SESSION_COOKIE = 'hearth_session';

/** What the session book needs of the store (db/queries/sessions.ts). */
export type SessionStore = Port<
  Pick<
    ReturnType<typeof sessionQueries>,
    'insertSession' | 'sessionById' | 'sessionsOfUser' | 'deleteSession' | 'deleteSessionOf' | 'deleteExpiredSessions'
  >
>;

const idOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token as minted below: 43 base64url characters (32 random bytes). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class SessionBook {
  constructor(
    private readonly store: SessionStore,
    private readonly lifetimeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a session for a person; answers the token for the cookie. */
  async start(
    person: { id: string },
    from: { userAgent?: string | null; address?: string | null } = {},
  ): Promise<{ token: string; expiresAt: number }> {
    const now = this.now();
    await this.store.deleteExpiredSessions(now);
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + this.lifetimeMs;
    await this.store.insertSession({
      id: idOf(token),
      userId: person.id,
      createdAt: now,
      expiresAt,
      userAgent: from.userAgent?.slice(0, 300) ?? null,
      address: from.address?.slice(0, 100) ?? null,
    });
    return { token, expiresAt };
  }

  /** The person a session token is, while it lasts and they may log in; null otherwise. */
  async person(token: string | undefined | null): Promise<Person | null> {
    if (!token || !TOKEN.test(token)) return null;
    const row = await this.store.sessionById(idOf(token));
    if (!row || row.expiresAt <= this.now() || !row.userId || !row.role || !row.username || row.disabled) return null;
    return { id: row.userId, username: row.username, role: row.role };
  }

  async valid(token: string | undefined | null): Promise<boolean> {
    return (await this.person(token)) !== null;
  }

  /** A person's sessions, newest first (ids are the tokens' hashes: they cannot be used to log in). */
  async list(person: { id: string }, token?: string | null): Promise<SessionInfo[]> {
    const current = token && TOKEN.test(token) ? idOf(token) : null;
    const now = this.now();
    return (await this.store.sessionsOfUser(person.id)).filter((s) => s.expiresAt > now).map((s) => ({ ...s, current: s.id === current }));
  }

  /** Ends one of the person's own sessions; false when they have none by that id. */
  async revoke(person: { id: string }, id: string): Promise<boolean> {
    return this.store.deleteSessionOf(person.id, id);
  }

  async end(token: string | undefined | null): Promise<void> {
    if (token && TOKEN.test(token)) await this.store.deleteSession(idOf(token));
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
