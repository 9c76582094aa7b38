import type { Port, Transactional } from '@/lib/shared/awaitable';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Role } from '@/lib/contract/statuses';
import { HearthError } from '@/lib/shared/errors';
import { hashPassword } from './password';

/**
 * The people who may use this Hearth, as the owner makes them (`npm run users`, and the admin
 * page): each with a role (owner: everything; admin: people and settings; member: their own
 * things) and a password kept as an scrypt hash. There is always an owner: the last one cannot
 * be removed, disabled or made something else. Removing or disabling a person, or setting a
 * new password for them, ends their sessions at once (sessions are checked against the
 * database on every request, so this holds for a server already running).
 */

export type Person = { id: string; username: string; role: Role };

/** What the owner allows a person: turns a day, fuel a turn (null: no limit of their own). */
export type Limits = { turnsPerDay: number | null; fuelPerTurn: number | null };

type UserRow = Person &
  Limits & {
    passwordHash: string | null;
    disabled: boolean;
    library: string;
    createdAt: number;
    oidcSubject: string | null;
    email: string | null;
    proxyUser: string | null;
  };

type NewUser = Pick<UserRow, 'id' | 'username' | 'role' | 'passwordHash' | 'library' | 'createdAt'> &
  Partial<Pick<UserRow, 'oidcSubject' | 'email' | 'proxyUser'>>;

/** The first person's library is the database from before accounts; everyone after has their own. */
export const MAIN_LIBRARY = 'hearth.db';
const libraryFor = (id: string, first: boolean) => (first ? MAIN_LIBRARY : `people/${id}.db`);
/** A library's file as the users table may name it (only Hearth writes it; checked before it is opened all the same). */
export const LIBRARY_FILE = /^(hearth\.db|people\/[0-9a-f-]{36}\.db)$/;

export type PeopleStore = Transactional &
  Port<{
    insertUser(row: NewUser): UserRow;
    userBySubject(subject: string): UserRow | undefined;
    userByProxyUser(value: string): UserRow | undefined;
    /** Whether this username's account was made by accepting an invitation (its holder chose the name). */
    joinedByInvite(username: string): boolean;
    userById(id: string): UserRow | undefined;
    userByName(username: string): UserRow | undefined;
    listUsers(): UserRow[];
    countUsers(): number;
    updateUser(
      id: string,
      change: Partial<Limits & { role: Role; passwordHash: string | null; disabled: boolean; email: string | null; proxyUser: string }>,
    ): UserRow | undefined;
    deleteUser(id: string): void;
    insertInvite(row: { id: string; role: Role; createdBy: string | null; createdAt: number; expiresAt: number }): void;
    inviteById(id: string): { role: Role; expiresAt: number; usedAt: number | null } | undefined;
    openInvites(now: number): { id: string; role: Role; createdAt: number; expiresAt: number }[];
    useInvite(id: string, usedBy: string, now: number): boolean;
    deleteInvite(id: string): boolean;
    deleteSessionsOfUser(userId: string): void;
    adoptSessions(userId: string): void;
  }>;

/** A username: what a person types to log in, kept in lower case. */
export const username = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit');

export const newPassword = z.string().min(8, 'must be at least 8 characters').max(1024, 'must be at most 1,024 characters');

/** How long an invitation link works. */
export const INVITE_DAYS = 7;
const inviteId = (token: string) => createHash('sha256').update(token).digest('hex');
/** An invitation's token as minted: 43 base64url characters (32 random bytes). */
export const INVITE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What a listing shows of a person: never the hash. */
export type PersonView = Person &
  Limits & { disabled: boolean; createdAt: number; hasPassword: boolean; singleSignOn: boolean; email: string | null };

const view = (u: UserRow): PersonView => ({
  id: u.id,
  username: u.username,
  role: u.role,
  disabled: u.disabled,
  createdAt: u.createdAt,
  hasPassword: Boolean(u.passwordHash),
  singleSignOn: Boolean(u.oidcSubject),
  email: u.email,
  turnsPerDay: u.turnsPerDay,
  fuelPerTurn: u.fuelPerTurn,
});

export class People {
  constructor(
    private readonly store: PeopleStore,
    private readonly now: () => number = Date.now,
    private readonly hash: (password: string) => string = hashPassword,
  ) {}

  async list(): Promise<PersonView[]> {
    return (await this.store.listUsers()).map(view);
  }

  async count(): Promise<number> {
    return this.store.countUsers();
  }

  /** The first owner, if any. */
  async owner(): Promise<Person | undefined> {
    const u = (await this.store.listUsers()).find((o) => o.role === 'owner' && !o.disabled);
    return u && { id: u.id, username: u.username, role: u.role };
  }

  async byId(id: string): Promise<PersonView | undefined> {
    const u = await this.store.userById(id);
    return u && view(u);
  }

  /** Where a person's library is, in DATA_DIR (the main database for the first person, and for the one person of a Hearth without accounts). */
  async libraryOf(id: string): Promise<string> {
    const file = (await this.store.userById(id))?.library ?? MAIN_LIBRARY;
    if (!LIBRARY_FILE.test(file)) throw new Error(`the users table names a library Hearth does not make: ${file}`);
    return file;
  }

  /** The stored hash to check a login against, for a person who may log in. */
  async credentials(name: string): Promise<{ person: Person; passwordHash: string } | undefined> {
    const clean = username.safeParse(name);
    const u = clean.success ? await this.store.userByName(clean.data) : undefined;
    if (!u || u.disabled || !u.passwordHash) return undefined;
    return { person: { id: u.id, username: u.username, role: u.role }, passwordHash: u.passwordHash };
  }

  /** The one person who may log in, when there is exactly one (then the username may be left out). */
  async only(): Promise<string | undefined> {
    const able = (await this.store.listUsers()).filter((u) => !u.disabled && u.passwordHash);
    return able.length === 1 ? able[0].username : undefined;
  }

  async add({ username: name, role, password }: { username: string; role: Role; password: string }): Promise<PersonView> {
    const clean = parse(username, name, 'username');
    const secret = parse(newPassword, password, 'password');
    return this.store.transaction(async () => {
      if (await this.store.userByName(clean)) throw new HearthError('conflict', `There is already someone called ${clean}.`);
      const id = randomUUID();
      const first = (await this.store.countUsers()) === 0;
      return view(
        await this.store.insertUser({
          id,
          username: clean,
          role,
          passwordHash: this.hash(secret),
          library: libraryFor(id, first),
          createdAt: this.now(),
        }),
      );
    });
  }

  /**
   * An invitation: a link that makes one account of `role`, once, for INVITE_DAYS. Only an owner
   * invites an owner. The token is in the link only; the database keeps its hash.
   */
  async invite(by: Person, role: Role): Promise<{ token: string; expiresAt: number }> {
    if (role === 'owner' && by.role !== 'owner') throw new HearthError('forbidden', 'Only an owner may invite another owner.');
    // Without accounts the one person has none to keep: they would be locked out by the first one joining.
    if (!(await this.store.userById(by.id)))
      throw new HearthError('conflict', 'Make yourself the owner first: npm run users -- add NAME --role owner. Then invite others.');
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const expiresAt = now + INVITE_DAYS * 24 * 60 * 60 * 1000;
    await this.store.insertInvite({ id: inviteId(token), role, createdBy: by.id, createdAt: now, expiresAt });
    return { token, expiresAt };
  }

  /** The invitations not yet used and still valid (ids are the tokens' hashes: they cannot be used to join). */
  async invites() {
    return (await this.store.openInvites(this.now())).map(({ id, role, createdAt, expiresAt }) => ({ id, role, createdAt, expiresAt }));
  }

  async withdrawInvite(id: string): Promise<boolean> {
    return this.store.deleteInvite(id);
  }

  /** Whether an invitation link still works (the page asks before showing its form). */
  async inviteOpen(token: string): Promise<Role | null> {
    if (!INVITE_TOKEN.test(token)) return null;
    const found = await this.store.inviteById(inviteId(token));
    return found && found.usedAt === null && found.expiresAt > this.now() ? found.role : null;
  }

  /** What the owner allows this person (no limits for someone not in the table: the one person without accounts). */
  async limitsOf(id: string): Promise<Limits> {
    const u = await this.store.userById(id);
    return { turnsPerDay: u?.turnsPerDay ?? null, fuelPerTurn: u?.fuelPerTurn ?? null };
  }

  setLimits(name: string, limits: Partial<Limits>): Promise<PersonView> {
    return this.store.transaction(async () => view((await this.store.updateUser((await this.find(name)).id, limits))!));
  }

  /**
   * The person a single sign-on provider vouches for (`subject`: its issuer and their `sub`):
   * the account it made before, or a new member's when `mayJoin` (an allowed e-mail domain, or
   * an open invitation whose token the login carried). Null: not known here and not let in.
   */
  signOn(
    subject: string,
    claims: { email?: string; preferredUsername?: string },
    mayJoin: { invite?: string; byDomain: boolean },
  ): Promise<Person | null> {
    return this.store.transaction(async () => {
      const known = await this.store.userBySubject(subject);
      if (known) {
        if (known.disabled) return null;
        if (claims.email && claims.email !== known.email) await this.store.updateUser(known.id, { email: claims.email });
        return { id: known.id, username: known.username, role: known.role };
      }
      const invited = mayJoin.invite ? await this.inviteOpen(mayJoin.invite) : null;
      if (!invited && !mayJoin.byDomain) return null;
      if ((await this.store.countUsers()) === 0)
        throw new HearthError('conflict', 'This Hearth has no owner yet: make one first (npm run users -- add NAME --role owner).');
      const name = await this.freeName(claims.preferredUsername ?? claims.email?.split('@')[0] ?? 'someone');
      const id = randomUUID();
      await this.store.insertUser({
        id,
        username: name,
        role: invited ?? 'member',
        passwordHash: null,
        library: libraryFor(id, false),
        createdAt: this.now(),
        oidcSubject: subject,
        email: claims.email ?? null,
      });
      if (invited && !(await this.store.useInvite(inviteId(mayJoin.invite!), name, this.now())))
        throw new HearthError('not_found', 'This invitation has just been used.');
      return { id, username: name, role: invited ?? 'member' };
    });
  }

  /**
   * The person a trusted reverse proxy names, by the header's exact value: the account tied to
   * it; the first time, an account the owner made under that very username (with the users
   * command or from the environment's password: never one whose name its holder chose, through
   * an invitation or a sign-on provider, which anyone could have chosen first); else a new
   * member, named after it. Null when the account is disabled, when the value is not one name
   * (a repeated header arrives as "a, b"), or when there are no accounts yet (the owner first).
   */
  async vouchedFor(value: string): Promise<Person | null> {
    const raw = value.trim();
    if (!raw || raw.length > 200 || raw.includes(',')) return null;
    // Known already (every request after the first): read alone, without taking the write lock.
    const known = await this.store.userByProxyUser(raw);
    if (known) return known.disabled ? null : { id: known.id, username: known.username, role: known.role };
    return this.store.transaction(async () => {
      const tied = await this.store.userByProxyUser(raw);
      if (tied) return tied.disabled ? null : { id: tied.id, username: tied.username, role: tied.role };
      if ((await this.store.countUsers()) === 0) return null;
      const same = username.safeParse(raw);
      const named = same.success ? await this.store.userByName(same.data) : undefined;
      if (named && !named.proxyUser && !named.oidcSubject && !(await this.store.joinedByInvite(named.username))) {
        if (named.disabled) return null;
        await this.store.updateUser(named.id, { proxyUser: raw });
        return { id: named.id, username: named.username, role: named.role };
      }
      const id = randomUUID();
      const name = await this.freeName(raw);
      await this.store.insertUser({
        id,
        username: name,
        role: 'member',
        passwordHash: null,
        library: libraryFor(id, false),
        createdAt: this.now(),
        proxyUser: raw,
      });
      return { id, username: name, role: 'member' };
    });
  }

  /** A name as a username: lower case, what a username may not hold made dashes (alice@example.com → alice-example.com). */
  private cleanName(wanted: string): string {
    return (
      wanted
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[^a-z0-9]+/, '')
        .slice(0, 56) || 'someone'
    );
  }

  /** A username made from what a provider calls someone: cleaned, and numbered when taken. */
  private async freeName(wanted: string): Promise<string> {
    const base = this.cleanName(wanted);
    for (let n = 1; ; n++) {
      const name = n === 1 ? base : `${base}-${n}`;
      if (!(await this.store.userByName(name))) return name;
    }
  }

  /** Joins with an invitation: the account is made and the link used up, in one step. */
  async accept(token: string, { username: name, password }: { username: string; password: string }): Promise<Person> {
    const clean = parse(username, name, 'username');
    const secret = parse(newPassword, password, 'password');
    const hash = this.hash(secret);
    return this.store.transaction(async () => {
      const role = await this.inviteOpen(token);
      if (!role) throw new HearthError('not_found', 'This invitation has been used or has expired: ask for a new one.');
      if (await this.store.userByName(clean))
        throw new HearthError('conflict', `There is already someone called ${clean}: choose another name.`);
      const id = randomUUID();
      await this.store.insertUser({ id, username: clean, role, passwordHash: hash, library: libraryFor(id, false), createdAt: this.now() });
      if (!(await this.store.useInvite(inviteId(token), clean, this.now())))
        throw new HearthError('not_found', 'This invitation has just been used.');
      return { id, username: clean, role };
    });
  }

  async remove(name: string): Promise<void> {
    await this.store.transaction(async () => {
      const u = await this.find(name);
      await this.keepAnOwner(u, 'removed');
      await this.store.deleteUser(u.id);
    });
  }

  async resetPassword(name: string, password: string): Promise<void> {
    const secret = parse(newPassword, password, 'password');
    const hash = this.hash(secret);
    await this.store.transaction(async () => {
      const u = await this.find(name);
      await this.store.updateUser(u.id, { passwordHash: hash });
      await this.store.deleteSessionsOfUser(u.id);
    });
  }

  setRole(name: string, role: Role): Promise<PersonView> {
    return this.store.transaction(async () => {
      const u = await this.find(name);
      if (role !== 'owner') await this.keepAnOwner(u, `made ${role}`);
      return view((await this.store.updateUser(u.id, { role }))!);
    });
  }

  setDisabled(name: string, disabled: boolean): Promise<PersonView> {
    return this.store.transaction(async () => {
      const u = await this.find(name);
      if (disabled) {
        await this.keepAnOwner(u, 'disabled');
        await this.store.deleteSessionsOfUser(u.id);
      }
      return view((await this.store.updateUser(u.id, { disabled }))!);
    });
  }

  /**
   * A library from before accounts: its owner is made from the password in the environment
   * (HEARTH_PASSWORD or HEARTH_PASSWORD_HASH), once, and keeps its sessions and everything in
   * it. After that the environment's password is not read again: people and passwords live here.
   */
  async ensureOwner(passwordHash: string | undefined, name = 'owner'): Promise<void> {
    if (!passwordHash) return;
    await this.store.transaction(async () => {
      if ((await this.store.countUsers()) > 0) return;
      const owner = await this.store.insertUser({
        id: randomUUID(),
        username: name,
        role: 'owner',
        passwordHash,
        library: MAIN_LIBRARY,
        createdAt: this.now(),
      });
      await this.store.adoptSessions(owner.id);
    });
  }

  private async find(name: string): Promise<UserRow> {
    const u = await this.store.userByName(parse(username, name, 'username'));
    if (!u) throw new HearthError('not_found', `There is no one called ${name.trim().toLowerCase()}.`);
    return u;
  }

  private async keepAnOwner(u: UserRow, what: string) {
    if (u.role !== 'owner' || u.disabled) return;
    const owners = (await this.store.listUsers()).filter((o) => o.role === 'owner' && !o.disabled);
    if (owners.length <= 1)
      throw new HearthError('conflict', `${u.username} is the only owner and cannot be ${what}: make someone else owner first.`);
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const r = schema.safeParse(value);
  if (!r.success) throw new HearthError('bad_request', `${field}: ${r.error.issues[0]?.message ?? 'is not valid'}.`);
  return r.data;
}
