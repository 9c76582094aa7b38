import type { Config } from '@/lib/shared/config';
import { hashPassword, passwordChecker, type PasswordCheck } from './password';
import { LoginLimiter } from './rate-limit';
import { SessionBook, type SessionStore } from './sessions';

/** Everything the login routes need, built once with the runtime. */
export type Auth = {
  /** Whether a password is set; without one there is nothing to log in to. */
  required: boolean;
  checkPassword: PasswordCheck;
  sessions: SessionBook;
  limiter: LoginLimiter;
  sessionMaxAgeSeconds: number;
};

export function createAuth(config: Config, store: SessionStore, now: () => number = Date.now): Auth {
  const encoded = config.HEARTH_PASSWORD_HASH ?? (config.HEARTH_PASSWORD ? hashPassword(config.HEARTH_PASSWORD) : undefined);
  const lifetimeMs = config.HEARTH_SESSION_DAYS * 24 * 60 * 60 * 1000;
  const sessions = new SessionBook(store, lifetimeMs, now);
  return {
    required: encoded !== undefined,
    checkPassword: encoded ? passwordChecker(encoded) : async () => false,
    sessions,
    limiter: new LoginLimiter(undefined, now),
    sessionMaxAgeSeconds: Math.floor(lifetimeMs / 1000),
  };
}
