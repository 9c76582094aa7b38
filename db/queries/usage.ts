import { asc, eq, gte, sql } from 'drizzle-orm';
import { first, type EngineDb } from '../engine';

/** One day's use of one model (lib/services/usage.ts). */
export type UsageRow = { day: string; model: string; turns: number; promptTokens: number; generatedTokens: number; modelMs: number };

/** What a library's turns used of the model servers, by day and model. */
export function usageQueries(db: EngineDb) {
  const { usage } = db.tables;
  return {
    /** Adds one ended turn's figures to its day and model. */
    async addUsage(row: UsageRow) {
      await db
        .insert(usage)
        .values(row)
        .onConflictDoUpdate({
          target: [usage.day, usage.model],
          set: {
            turns: sql`${usage.turns} + ${row.turns}`,
            promptTokens: sql`${usage.promptTokens} + ${row.promptTokens}`,
            generatedTokens: sql`${usage.generatedTokens} + ${row.generatedTokens}`,
            modelMs: sql`${usage.modelMs} + ${row.modelMs}`,
          },
        });
    },
    /** Every row from a day on (YYYY-MM-DD), oldest first. */
    async usageSince(day: string): Promise<UsageRow[]> {
      return await db.select().from(usage).where(gte(usage.day, day)).orderBy(asc(usage.day), asc(usage.model));
    },
    /** The turns ended on a day, over every model. */
    async turnsOnDay(day: string): Promise<number> {
      return first(
        await db
          .select({ n: sql<number>`coalesce(sum(${usage.turns}), 0)`.mapWith(Number) })
          .from(usage)
          .where(eq(usage.day, day)),
      )!.n;
    },
  };
}
