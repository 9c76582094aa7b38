import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../client';
import { sessions, users } from '../schema';

/** Login sessions, by the hash of their token (lib/services/auth/sessions.ts). */
export function sessionQueries(db: Db) {
  return {
    insertSession(row: {
      id: string;
      userId: string | null;
      createdAt: number;
      expiresAt: number;
      userAgent?: string | null;
      address?: string | null;
    }) {
      db.insert(sessions).values(row).run();
    },
    /** A session with the person it is, when it is someone's who may still log in. */
    sessionById(id: string) {
      return db
        .select({
          expiresAt: sessions.expiresAt,
          userId: sessions.userId,
          role: users.role,
          username: users.username,
          disabled: users.disabled,
        })
        .from(sessions)
        .leftJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.id, id))
        .get();
    },
    sessionsOfUser(userId: string) {
      return db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          userAgent: sessions.userAgent,
          address: sessions.address,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(desc(sessions.createdAt))
        .all();
    },
    deleteSession(id: string) {
      db.delete(sessions).where(eq(sessions.id, id)).run();
    },
    /** Ends one of a person's sessions; false when they have none by that id. */
    deleteSessionOf(userId: string, id: string): boolean {
      return (
        db
          .delete(sessions)
          .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
          .run().changes > 0
      );
    },
    deleteSessionsOfUser(userId: string) {
      db.delete(sessions).where(eq(sessions.userId, userId)).run();
    },
    deleteAllSessions() {
      db.delete(sessions).run();
    },
    deleteExpiredSessions(now: number) {
      db.delete(sessions).where(lt(sessions.expiresAt, now)).run();
    },
    /** Sessions from before accounts become the owner's. */
    adoptSessions(userId: string) {
      db.update(sessions).set({ userId }).where(isNull(sessions.userId)).run();
    },
  };
}
