import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { hostPenalties, hostSpend } from '../schema';

/** Circuit-breaker boxes and request spend per outside host. */
export function hostQueries(db: Db) {
  // Asked before every search and on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const penaltyByHost = db
    .select()
    .from(hostPenalties)
    .where(eq(hostPenalties.host, sql.placeholder('host')))
    .prepare();
  return {
    penaltyOf({ host }: { host: string }) {
      return penaltyByHost.get({ host });
    },
    setPenalty({ host, until, reason }: { host: string; until: number; reason: string }) {
      db.insert(hostPenalties)
        .values({ host, until, trips: 1, reason })
        .onConflictDoUpdate({
          target: hostPenalties.host,
          set: { until, reason, trips: sql`${hostPenalties.trips} + 1` },
        })
        .run();
    },
    clearPenalty({ host }: { host: string }) {
      db.delete(hostPenalties).where(eq(hostPenalties.host, host)).run();
    },
    recordSpend({ host, at }: { host: string; at: number }) {
      db.insert(hostSpend).values({ host, at }).run();
    },
    spendSince({ host, since }: { host: string; since: number }): number[] {
      return db
        .select({ at: hostSpend.at })
        .from(hostSpend)
        .where(and(eq(hostSpend.host, host), gte(hostSpend.at, since)))
        .all()
        .map((r) => r.at);
    },
    pruneSpend({ before }: { before: number }) {
      db.delete(hostSpend).where(lt(hostSpend.at, before)).run();
    },
  };
}
