import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Role } from '@/lib/contract/statuses';
import { changed, first, writtenRow, type EngineDb } from '../engine';

/** The people who may log in (lib/services/auth/people.ts). */
export function userQueries(db: EngineDb) {
  const { invites, sessions, users } = db.tables;
  return {
    async insertUser(row: typeof users.$inferInsert) {
      return writtenRow(await db.insert(users).values(row).returning());
    },
    async userBySubject(subject: string) {
      return first(await db.select().from(users).where(eq(users.oidcSubject, subject)));
    },
    async userByProxyUser(value: string) {
      return first(await db.select().from(users).where(eq(users.proxyUser, value)));
    },
    async joinedByInvite(username: string): Promise<boolean> {
      return first(await db.select({ id: invites.id }).from(invites).where(eq(invites.usedBy, username)).limit(1)) !== undefined;
    },
    async userById(id: string) {
      return first(await db.select().from(users).where(eq(users.id, id)));
    },
    async userByName(username: string) {
      return first(await db.select().from(users).where(eq(users.username, username)));
    },
    async listUsers() {
      return await db.select().from(users).orderBy(asc(users.createdAt), asc(users.username));
    },
    async countUsers(): Promise<number> {
      return first(await db.select({ n: count() }).from(users))!.n;
    },
    async updateUser(
      id: string,
      change: Partial<{
        role: Role;
        passwordHash: string | null;
        disabled: boolean;
        email: string | null;
        turnsPerDay: number | null;
        fuelPerTurn: number | null;
        proxyUser: string;
      }>,
    ) {
      return first(await db.update(users).set(change).where(eq(users.id, id)).returning());
    },
    async insertInvite(row: { id: string; role: Role; createdBy: string | null; createdAt: number; expiresAt: number }) {
      await db.insert(invites).values(row);
    },
    async inviteById(id: string) {
      return first(await db.select().from(invites).where(eq(invites.id, id)));
    },
    /** Invitations not used and not expired, newest first. */
    async openInvites(now: number) {
      return await db
        .select()
        .from(invites)
        .where(and(isNull(invites.usedAt), gt(invites.expiresAt, now)))
        .orderBy(sql`${invites.createdAt} desc`);
    },
    /** Marks an invitation used, if it still was open: false when it was used (or expired) already. */
    async useInvite(id: string, usedBy: string, now: number): Promise<boolean> {
      return (
        changed(
          await db
            .update(invites)
            .set({ usedBy, usedAt: now })
            .where(and(eq(invites.id, id), isNull(invites.usedAt), gt(invites.expiresAt, now))),
        ) > 0
      );
    },
    async deleteInvite(id: string): Promise<boolean> {
      return changed(await db.delete(invites).where(eq(invites.id, id))) > 0;
    },
    /** Removes the person and ends their sessions, in one step. */
    async deleteUser(id: string) {
      await db.atomically(async () => {
        await db.delete(sessions).where(eq(sessions.userId, id));
        await db.delete(users).where(eq(users.id, id));
      });
    },
  };
}
