import { and, asc, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../client';
import { loginAttempts } from '../schema';

export type AttemptScope = (typeof loginAttempts.$inferSelect)['scope'];

/** Login attempts counted against the limits (lib/services/auth/rate-limit.ts). */
export function loginAttemptQueries(db: Db) {
  return {
    /** The times of the scope's attempts after `since`, oldest first: all of them, and the key's not cleared. */
    loginAttemptsSince({ scope, key, since }: { scope: AttemptScope; key: string; since: number }): { mine: number[]; all: number[] } {
      const rows = db
        .select({ key: loginAttempts.key, at: loginAttempts.at, cleared: loginAttempts.cleared })
        .from(loginAttempts)
        .where(and(eq(loginAttempts.scope, scope), gt(loginAttempts.at, since)))
        .orderBy(asc(loginAttempts.at), asc(loginAttempts.id))
        .all();
      return { mine: rows.filter((r) => r.key === key && !r.cleared).map((r) => r.at), all: rows.map((r) => r.at) };
    },
    addLoginAttempt(row: { scope: AttemptScope; key: string; at: number }): number {
      return db.insert(loginAttempts).values(row).returning({ id: loginAttempts.id }).get().id;
    },
    /** A right password: this attempt no longer counts anywhere, the key's others no longer count for it. */
    loginSucceeded({ id, scope, key }: { id: number; scope: AttemptScope; key: string }) {
      db.transaction((tx) => {
        tx.delete(loginAttempts).where(eq(loginAttempts.id, id)).run();
        tx.update(loginAttempts)
          .set({ cleared: true })
          .where(and(eq(loginAttempts.scope, scope), eq(loginAttempts.key, key)))
          .run();
      });
    },
    /** Attempts at or before `before` count no more. */
    forgetLoginAttempts({ scope, before }: { scope: AttemptScope; before: number }) {
      db.delete(loginAttempts)
        .where(and(eq(loginAttempts.scope, scope), lte(loginAttempts.at, before)))
        .run();
    },
  };
}
