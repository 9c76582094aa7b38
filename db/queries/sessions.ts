import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import { changed, first, type EngineDb } from '../engine';

/** Login sessions, by the hash of their token (lib/services/auth/sessions.ts). */
export function sessionQueries(db: EngineDb) {
  const { sessions, users } = db.tables;
  return {
    async insertSession(row: {
      id: string;
      userId: string | null;
      createdAt: number;
      expiresAt: number;
      userAgent?: string | null;
      address?: string | null;
    }) {
      await db.insert(sessions).values(row);
    },
    /** A session with the person it is, when it is someone's who may still log in. */
    async sessionById(id: string) {
      return first(
        await db
          .select({
            expiresAt: sessions.expiresAt,
            userId: sessions.userId,
            role: users.role,
            username: users.username,
            disabled: users.disabled,
          })
          .from(sessions)
          .leftJoin(users, eq(users.id, sessions.userId))
          .where(eq(sessions.id, id)),
      );
    },
    async sessionsOfUser(userId: string) {
      return await db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          userAgent: sessions.userAgent,
          address: sessions.address,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(desc(sessions.createdAt));
    },
    async deleteSession(id: string) {
      await db.delete(sessions).where(eq(sessions.id, id));
    },
    /** Ends one of a person's sessions; false when they have none by that id. */
    async deleteSessionOf(userId: string, id: string): Promise<boolean> {
      return changed(await db.delete(sessions).where(and(eq(sessions.id, id), eq(sessions.userId, userId)))) > 0;
    },
    async deleteSessionsOfUser(userId: string) {
      await db.delete(sessions).where(eq(sessions.userId, userId));
    },
    async deleteAllSessions() {
      await db.delete(sessions);
    },
    async deleteExpiredSessions(now: number) {
      await db.delete(sessions).where(lt(sessions.expiresAt, now));
    },
    /** Sessions from before accounts become the owner's. */
    async adoptSessions(userId: string) {
      await db.update(sessions).set({ userId }).where(isNull(sessions.userId));
    },
  };
}
