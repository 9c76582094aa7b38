import type { Config } from '@/lib/shared/config';
import { hashPassword, passwordVerifier } from './password';
import { People, type PeopleStore, type Person } from './people';
import { LoginLimiter, type AttemptStore } from './rate-limit';
import { SessionBook, type SessionStore } from './sessions';
import { trustedUsername, type TrustedHeader } from './trusted-header';

/** Everything the login routes need, built once with the runtime. */
export type Auth = {
  /**
   * Whether a login is needed: someone can log in with a password. Asked of the database each
   * time, so people the users command adds while Hearth runs count at once.
   */
  required(): Promise<boolean>;
  people: People;
  /** Who a request is when no one has an account (one person on loopback, as before accounts): the owner. */
  owner(): Promise<Person>;
  /** The person these credentials are (the username may be left out when one person can log in), or null. */
  login(username: string | undefined, password: string): Promise<Person | null>;
  sessions: SessionBook;
  /** Wrong passwords per address (and over all addresses). */
  limiter: LoginLimiter;
  /** Wrong passwords per account, from whatever addresses. */
  accountLimiter: LoginLimiter;
  sessionMaxAgeSeconds: number;
  /** The person a trusted reverse proxy names in its header (trusted-header.ts), or null. */
  vouched(headers: Headers): Promise<Person | null>;
};

/** The one person of a Hearth with no accounts: everything there is theirs. */
export const LOCAL_OWNER: Person = { id: 'local', username: 'local', role: 'owner' };

/** Wrong passwords for one account, from any number of addresses, in 15 minutes. */
export const ACCOUNT_LIMITS = { perAddress: 30, overall: Number.MAX_SAFE_INTEGER, windowMs: 15 * 60 * 1000 };

/** A hash no password matches: a login as no one costs the same time as a real one. */
const NOBODY = hashPassword('no one has this password', Buffer.alloc(16));

export function createAuth(config: Config, store: SessionStore & PeopleStore & AttemptStore, now: () => number = Date.now): Auth {
  const lifetimeMs = config.HEARTH_SESSION_DAYS * 24 * 60 * 60 * 1000;
  const people = new People(store, now);
  // A library from before accounts: its owner is made from the environment's password, once;
  // whatever asks who may log in waits for that (a failure is said there, not lost here).
  const ownerMade = people.ensureOwner(
    config.HEARTH_PASSWORD_HASH ?? (config.HEARTH_PASSWORD ? hashPassword(config.HEARTH_PASSWORD) : undefined),
  );
  ownerMade.catch(() => undefined);
  const verify = passwordVerifier();
  const trusted: TrustedHeader | null = config.HEARTH_TRUSTED_HEADER
    ? { header: config.HEARTH_TRUSTED_HEADER, proxies: config.HEARTH_TRUSTED_PROXIES }
    : null;
  return {
    async vouched(headers) {
      await ownerMade;
      const name = trustedUsername(headers, trusted);
      return name ? await people.vouchedFor(name) : null;
    },
    // Once anyone has an account, every page and route needs a login, on loopback too.
    required: async () => {
      await ownerMade;
      return (await people.count()) > 0;
    },
    people,
    owner: async () => {
      await ownerMade;
      return (await people.owner()) ?? LOCAL_OWNER;
    },
    async login(username, password) {
      await ownerMade;
      const name = username?.trim() || (await people.only());
      const found = name ? await people.credentials(name) : undefined;
      const right = await verify(found?.passwordHash ?? NOBODY, password);
      return found && right ? found.person : null;
    },
    sessions: new SessionBook(store, lifetimeMs, now),
    limiter: new LoginLimiter(store, 'address', undefined, now),
    // Higher than one address's limit: one guesser is stopped by that, and cannot lock the person out.
    accountLimiter: new LoginLimiter(store, 'account', ACCOUNT_LIMITS, now),
    sessionMaxAgeSeconds: Math.floor(lifetimeMs / 1000),
  };
}
