import type { Awaitable } from '@/lib/shared/awaitable';
import { oneAtATimePer } from '@/lib/shared/one-at-a-time';
/**
 * Politeness towards outside hosts: a per-host circuit breaker and rate budgets, kept in
 * SQLite (through HostStore) so they survive a restart. A host that refuses us (429, or the
 * 202 some search engines send instead) rests for hours; one that stumbles (timeout, DNS
 * failure) rests for minutes; success clears the box.
 */

export type HostStore = {
  penaltyOf(args: { host: string }): Awaitable<{ until: number; reason: string } | undefined>;
  setPenalty(args: { host: string; until: number; reason: string }): Awaitable<void>;
  clearPenalty(args: { host: string }): Awaitable<void>;
  recordSpend(args: { host: string; at: number }): Awaitable<void>;
  spendSince(args: { host: string; since: number }): Awaitable<number[]>;
  pruneSpend(args: { before: number }): Awaitable<void>;
};

/** Spend older than a day no longer counts; it is deleted every this many requests. */
const PRUNE_EVERY = 100;

/** A refusal means "stop asking": six hours, as the reference found search engines need. */
export const REFUSAL_REST_MS = 6 * 60 * 60 * 1000;
/** A stumble is usually passing: five minutes. */
export const STUMBLE_REST_MS = 5 * 60 * 1000;

/** The key a host is known by for breakers and budgets: host and port, as in a URL. */
export function hostKey(url: string | URL): string {
  return new URL(url).host;
}

/** Admissions over one store's spend, one after another (every pacer over it shares the queue). */
const oneAtATime = oneAtATimePer<HostStore>();

export type RateBudget = { minGapMs: number; perMinute: number; perHour: number; perDay: number };
export const DEFAULT_BUDGET: RateBudget = { minGapMs: 400, perMinute: 60, perHour: 900, perDay: 8000 };

/** ok: the request may go, after waiting `waitMs` (the minimum gap since the last one). */
export type HostVerdict = { ok: true; waitMs: number } | { ok: false; reason: string; until: number };

export function createHostPacer(
  store: HostStore,
  now: () => number,
  budgets: Record<string, RateBudget> = {},
  defaultBudget = DEFAULT_BUDGET,
) {
  let admitted = 0;
  const admitNow = async (host: string): Promise<HostVerdict> => {
    const t = now();
    const box = await store.penaltyOf({ host });
    if (box && box.until > t) return { ok: false, reason: box.reason, until: box.until };
    const budget = budgets[host] ?? defaultBudget;
    const day = await store.spendSince({ host, since: t - 86_400_000 });
    const within = (ms: number) => day.filter((at) => at > t - ms).length;
    const last = day.length ? Math.max(...day) : -Infinity;
    // A very short gap is waited out rather than refused.
    const waitMs = Math.max(0, Math.min(budget.minGapMs, last + budget.minGapMs - t));
    if (within(60_000) >= budget.perMinute) return { ok: false, reason: 'rate budget for this minute is used up', until: t + 60_000 };
    if (within(3_600_000) >= budget.perHour) return { ok: false, reason: 'rate budget for this hour is used up', until: t + 3_600_000 };
    if (day.length >= budget.perDay) return { ok: false, reason: 'rate budget for today is used up', until: t + 86_400_000 };
    await store.recordSpend({ host, at: t });
    // counting down reaches a multiple of PRUNE_EVERY as often as counting up
    if (++admitted % PRUNE_EVERY === 0) await store.pruneSpend({ before: t - 86_400_000 });
    return { ok: true, waitMs };
  };
  return {
    /** May we ask this host now? Spends one request when yes. */
    admit(host: string): Promise<HostVerdict> {
      // One after another over a store: two at once would both read the spend before either records it.
      return oneAtATime(store, () => admitNow(host));
    },
    async refused(host: string, status: number) {
      await store.setPenalty({ host, until: now() + REFUSAL_REST_MS, reason: `it answered HTTP ${status} (too many requests)` });
    },
    async stumbled(host: string, why: string) {
      await store.setPenalty({ host, until: now() + STUMBLE_REST_MS, reason: why });
    },
    async succeeded(host: string) {
      // clearing a rest that is not there changes nothing
      if (await store.penaltyOf({ host })) await store.clearPenalty({ host });
    },
    async isResting(host: string): Promise<boolean> {
      const box = await store.penaltyOf({ host });
      return Boolean(box && box.until > now());
    },
  };
}

export type HostPacer = ReturnType<typeof createHostPacer>;

/** The model-facing error for a resting host. */
export function restingMessage(host: string, verdict: { reason: string; until: number }, now: number): string {
  const minutes = Math.max(1, Math.round((verdict.until - now) / 60_000));
  return `${host} is resting for about ${minutes} minute(s) (${verdict.reason}). Do not call it again in this turn: answer with what you have and say plainly what could not be checked.`;
}
