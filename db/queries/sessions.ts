import { eq, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { sessions } from '../schema';

/** Login sessions, by the hash of their token (lib/services/auth/sessions.ts). */
export function sessionQueries(db: Db) {
  return {
    insertSession(row: { id: string; createdAt: number; expiresAt: number }) {
      db.insert(sessions).values(row).run();
    },
    sessionById(id: string) {
      return db.select().from(sessions).where(eq(sessions.id, id)).get();
    },
    deleteSession(id: string) {
      db.delete(sessions).where(eq(sessions.id, id)).run();
    },
    deleteAllSessions() {
      db.delete(sessions).run();
    },
    deleteExpiredSessions(now: number) {
      db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
    },
  };
}
