import { and, asc, eq, gt, lte } from 'drizzle-orm';
import { writtenRow, type EngineDb, type Tables } from '../engine';

export type AttemptScope = Tables['loginAttempts']['$inferSelect']['scope'];

/** Login attempts counted against the limits (lib/services/auth/rate-limit.ts). */
export function loginAttemptQueries(db: EngineDb) {
  const { loginAttempts } = db.tables;
  return {
    /** The times of the scope's attempts after `since`, oldest first: all of them, and the key's not cleared. */
    async loginAttemptsSince({
      scope,
      key,
      since,
    }: {
      scope: AttemptScope;
      key: string;
      since: number;
    }): Promise<{ mine: number[]; all: number[] }> {
      const rows = await db
        .select({ key: loginAttempts.key, at: loginAttempts.at, cleared: loginAttempts.cleared })
        .from(loginAttempts)
        .where(and(eq(loginAttempts.scope, scope), gt(loginAttempts.at, since)))
        .orderBy(asc(loginAttempts.at), asc(loginAttempts.id));
      return { mine: rows.filter((r) => r.key === key && !r.cleared).map((r) => r.at), all: rows.map((r) => r.at) };
    },
    async addLoginAttempt(row: { scope: AttemptScope; key: string; at: number }): Promise<number> {
      return writtenRow(await db.insert(loginAttempts).values(row).returning({ id: loginAttempts.id })).id;
    },
    /** A right password: this attempt no longer counts anywhere, the key's others no longer count for it. */
    async loginSucceeded({ id, scope, key }: { id: number; scope: AttemptScope; key: string }) {
      await db.atomically(async () => {
        await db.delete(loginAttempts).where(eq(loginAttempts.id, id));
        await db
          .update(loginAttempts)
          .set({ cleared: true })
          .where(and(eq(loginAttempts.scope, scope), eq(loginAttempts.key, key)));
      });
    },
    /** Attempts at or before `before` count no more. */
    async forgetLoginAttempts({ scope, before }: { scope: AttemptScope; before: number }) {
      await db.delete(loginAttempts).where(and(eq(loginAttempts.scope, scope), lte(loginAttempts.at, before)));
    },
  };
}
