import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { first, prepared, type EngineDb } from '../engine';

/** Circuit-breaker boxes and request spend per outside host. */
export function hostQueries(db: EngineDb) {
  const { hostPenalties, hostSpend } = db.tables;
  // Asked before every search and on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const penaltyByHost = prepared(db, () =>
    db
      .select()
      .from(hostPenalties)
      .where(eq(hostPenalties.host, sql.placeholder('host'))),
  );
  return {
    async penaltyOf({ host }: { host: string }) {
      return first(await penaltyByHost.execute({ host }));
    },
    async setPenalty({ host, until, reason }: { host: string; until: number; reason: string }) {
      await db
        .insert(hostPenalties)
        .values({ host, until, trips: 1, reason })
        .onConflictDoUpdate({
          target: hostPenalties.host,
          set: { until, reason, trips: sql`${hostPenalties.trips} + 1` },
        });
    },
    async clearPenalty({ host }: { host: string }) {
      await db.delete(hostPenalties).where(eq(hostPenalties.host, host));
    },
    async recordSpend({ host, at }: { host: string; at: number }) {
      await db.insert(hostSpend).values({ host, at });
    },
    async spendSince({ host, since }: { host: string; since: number }): Promise<number[]> {
      return (
        await db
          .select({ at: hostSpend.at })
          .from(hostSpend)
          .where(and(eq(hostSpend.host, host), gte(hostSpend.at, since)))
      ).map((r) => r.at);
    },
    async pruneSpend({ before }: { before: number }) {
      await db.delete(hostSpend).where(lt(hostSpend.at, before));
    },
  };
}
