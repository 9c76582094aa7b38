import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { boundedQueue } from '@/lib/shared/bounded-queue';
import { PASSWORD_HASH_FORMAT } from '@/lib/shared/config';

const scryptAsync = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

/**
 * The login password, kept as an scrypt hash: `scrypt$N$r$p$salt$hash` (salt and hash in
 * base64url). HEARTH_PASSWORD_HASH holds one made by `npm run hash-password`; a plain
 * HEARTH_PASSWORD is hashed once at start, so both are checked the same way: by hashing what
 * was typed and comparing in constant time.
 */

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
/** scrypt with N=2^15, r=8 needs 32 MiB; Node's default limit is exactly that, so raise it a little. */
const MAX_MEM = 64 * 1024 * 1024;

export function hashPassword(password: string, salt: Buffer = randomBytes(16)): string {
  const hash = scryptSync(password.normalize('NFC'), salt, KEY_BYTES, { N, r: R, p: P, maxmem: MAX_MEM });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Hashing runs on libuv's pool, so a login never stalls the streams of running turns. */
export type PasswordCheck = (typed: string) => Promise<boolean>;

/**
 * At most this many scrypt hashes at once (32 MiB each); the rest wait their turn, so a burst
 * of logins holds a bounded amount of memory and leaves libuv's pool to the file reads.
 */
const CONCURRENT_HASHES = 2;

/** A stored hash's parts; throws when it is not in the format above. */
function parseHash(encoded: string) {
  const m = PASSWORD_HASH_FORMAT.exec(encoded);
  if (!m) throw new Error('not an scrypt password hash');
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (n < 2 || (n & (n - 1)) !== 0 || r < 1 || p < 1) throw new Error('not an scrypt password hash');
  return { n, r, p, salt: Buffer.from(m[4], 'base64url'), expected: Buffer.from(m[5], 'base64url') };
}

/** Checks typed passwords against stored hashes, at most `concurrent` at once over all of them. */
export function passwordVerifier({ concurrent = CONCURRENT_HASHES }: { concurrent?: number } = {}) {
  const queue = boundedQueue(concurrent);
  return (encoded: string, typed: string): Promise<boolean> => {
    const { n, r, p, salt, expected } = parseHash(encoded);
    return queue(async () => {
      // Long inputs are cut before hashing so a huge body cannot make scrypt slower; the
      // comparison below is of fixed-length hashes, so it takes the same time right or wrong.
      const actual = await scryptAsync(typed.slice(0, 1024).normalize('NFC'), salt, expected.length, { N: n, r, p, maxmem: MAX_MEM });
      return timingSafeEqual(actual, expected);
    });
  };
}

/** A checker for one stored hash; throws when the hash is not in the format above. */
export function passwordChecker(encoded: string, options: { concurrent?: number } = {}): PasswordCheck {
  parseHash(encoded);
  const verify = passwordVerifier(options);
  return (typed) => verify(encoded, typed);
}
