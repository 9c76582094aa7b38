/**
 * Failed logins, counted in a sliding window per client address and over all addresses.
 * The per-address limit stops one client guessing; the global one bounds guessing from
 * many addresses (or from one that forges X-Forwarded-For, which Next passes on as sent).
 * Each attempt counts from the moment it is made (reserve); a success takes it back and
 * clears the address's count.
 */
export type LoginLimits = { perAddress: number; overall: number; windowMs: number };

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perAddress: 10, overall: 100, windowMs: 15 * 60 * 1000 };

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();
  private all: number[] = [];

  constructor(
    private readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts a login attempt before its password is checked (the check is slow, scrypt): the
   * attempt, or the milliseconds until this address may try again. Counting first means
   * attempts made at the same time are all counted, so no number of concurrent tries gets
   * more than the limit through. A right password takes its attempt back (succeeded).
   */
  reserve(address: string): LoginAttempt | number {
    const wait = this.waitMs(address);
    if (wait > 0) return wait;
    const stamp = this.now();
    this.all.push(stamp);
    const mine = this.failures.get(address) ?? [];
    mine.push(stamp);
    this.failures.set(address, mine);
    // Bound memory against a flood of forged addresses: the global window is the real cap.
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value as string);
    return {
      succeeded: () => {
        this.failures.delete(address);
        const at = this.all.lastIndexOf(stamp);
        if (at >= 0) this.all.splice(at, 1);
      },
    };
  }

  /** Milliseconds until this address may try again, or 0 when it may try now. */
  private waitMs(address: string): number {
    const now = this.now();
    const since = now - this.limits.windowMs;
    this.all = this.all.filter((t) => t > since);
    const mine = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (mine.length) this.failures.set(address, mine);
    else this.failures.delete(address);
    if (mine.length >= this.limits.perAddress) return mine[mine.length - this.limits.perAddress] + this.limits.windowMs - now;
    if (this.all.length >= this.limits.overall) return this.all[this.all.length - this.limits.overall] + this.limits.windowMs - now;
    return 0;
  }
}

/** An attempt counted by reserve; a right password takes it back. */
export type LoginAttempt = { succeeded(): void };

/** The client's address as Next passes it: the first X-Forwarded-For entry (the socket's address when the client sent none). */
export function clientAddress(request: Request): string {
  return (
    request.headers.get('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 100) ||
    request.headers.get('x-real-ip')?.trim().slice(0, 100) ||
    'unknown'
  );
}
