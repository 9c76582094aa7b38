import type { AttemptScope, loginAttemptQueries } from '@/db/queries/login-attempts';
import type { Port, Transactional } from '@/lib/shared/awaitable';

/**
 * Failed logins, counted in a sliding window per client address (or per account) and over all
 * of them. The per-address limit stops one client guessing; the global one bounds guessing from
 * many addresses (or from one that forges X-Forwarded-For, which Next passes on as sent). Each
 * attempt counts from the moment it is made (reserve); a success takes it back and clears the
 * address's count. The attempts are kept in the database (login_attempts), so a restart does
 * not forgive a guesser, and every Hearth process on one database counts the same ones.
 */
export type LoginLimits = { perAddress: number; overall: number; windowMs: number };

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAddress: 10, overall: 100, windowMs: 15 * 60 * 1000 };

/** What the limiter keeps its attempts in (db/queries/login-attempts.ts). */
export type AttemptStore = Transactional &
  Port<Pick<ReturnType<typeof loginAttemptQueries>, 'loginAttemptsSince' | 'addLoginAttempt' | 'loginSucceeded' | 'forgetLoginAttempts'>>;

export class LoginLimiter {
  constructor(
    private readonly store: AttemptStore,
    /** Which limit this is: per client address, or per account (the key is then the username). */
    private readonly scope: AttemptScope,
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts a login attempt before its password is checked (the check is slow, scrypt): the
   * attempt, or the milliseconds until this address may try again. Counting first, in one
   * transaction with the check, means attempts made at the same time are all counted, so no
   * number of concurrent tries gets more than the limit through. A right password takes its
   * attempt back (succeeded).
   */
  reserve(key: string): Promise<LoginAttempt | number> {
    const { store, scope } = this;
    return store.transaction(async () => {
      const now = this.now();
      const since = now - this.limits.windowMs;
      await store.forgetLoginAttempts({ scope, before: since });
      const { mine, all } = await store.loginAttemptsSince({ scope, key, since });
      if (mine.length >= this.limits.perAddress) return mine[mine.length - this.limits.perAddress] + this.limits.windowMs - now;
      if (all.length >= this.limits.overall) return all[all.length - this.limits.overall] + this.limits.windowMs - now;
      const id = await store.addLoginAttempt({ scope, key, at: now });
      return { succeeded: () => Promise.resolve(store.loginSucceeded({ id, scope, key })) };
    });
  }
}

/** An attempt counted by reserve; a right password takes it back. */
export type LoginAttempt = { succeeded(): Promise<void> };

/** The client's address as Next passes it: the first X-Forwarded-For entry (the socket's address when the client sent none). */
export function clientAddress(request: Request): string {
  return (
    request.headers.get('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 100) ||
    request.headers.get('x-real-ip')?.trim().slice(0, 100) ||
    'unknown'
  );
}
