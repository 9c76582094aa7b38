import { asc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { usage } from '../schema';

/** One day's use of one model (lib/services/usage.ts). */
export type UsageRow = { day: string; model: string; turns: number; promptTokens: number; generatedTokens: number; modelMs: number };

/** What a library's turns used of the model servers, by day and model. */
export function usageQueries(db: Db) {
  return {
    /** Adds one ended turn's figures to its day and model. */
    addUsage(row: UsageRow) {
      db.insert(usage)
        .values(row)
        .onConflictDoUpdate({
          target: [usage.day, usage.model],
          set: {
            turns: sql`${usage.turns} + ${row.turns}`,
            promptTokens: sql`${usage.promptTokens} + ${row.promptTokens}`,
            generatedTokens: sql`${usage.generatedTokens} + ${row.generatedTokens}`,
            modelMs: sql`${usage.modelMs} + ${row.modelMs}`,
          },
        })
        .run();
    },
    /** Every row from a day on (YYYY-MM-DD), oldest first. */
    usageSince(day: string): UsageRow[] {
      return db.select().from(usage).where(gte(usage.day, day)).orderBy(asc(usage.day), asc(usage.model)).all();
    },
    /** The turns ended on a day, over every model. */
    turnsOnDay(day: string): number {
      return db
        .select({ n: sql<number>`coalesce(sum(${usage.turns}), 0)` })
        .from(usage)
        .where(eq(usage.day, day))
        .get()!.n;
    },
  };
}
