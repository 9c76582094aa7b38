import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { invites, sessions, users } from '../schema';
import type { Role } from '@/lib/contract/statuses';

/** The people who may log in (lib/services/auth/people.ts). */
export function userQueries(db: Db) {
  return {
    insertUser(row: typeof users.$inferInsert) {
      return db.insert(users).values(row).returning().get();
    },
    userBySubject(subject: string) {
      return db.select().from(users).where(eq(users.oidcSubject, subject)).get();
    },
    userByProxyUser(value: string) {
      return db.select().from(users).where(eq(users.proxyUser, value)).get();
    },
    joinedByInvite(username: string): boolean {
      return db.select({ id: invites.id }).from(invites).where(eq(invites.usedBy, username)).get() !== undefined;
    },
    userById(id: string) {
      return db.select().from(users).where(eq(users.id, id)).get();
    },
    userByName(username: string) {
      return db.select().from(users).where(eq(users.username, username)).get();
    },
    listUsers() {
      return db.select().from(users).orderBy(asc(users.createdAt), asc(users.username)).all();
    },
    countUsers(): number {
      return db
        .select({ n: sql<number>`count(*)` })
        .from(users)
        .get()!.n;
    },
    updateUser(
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
      return db.update(users).set(change).where(eq(users.id, id)).returning().get();
    },
    insertInvite(row: { id: string; role: Role; createdBy: string | null; createdAt: number; expiresAt: number }) {
      db.insert(invites).values(row).run();
    },
    inviteById(id: string) {
      return db.select().from(invites).where(eq(invites.id, id)).get();
    },
    /** Invitations not used and not expired, newest first. */
    openInvites(now: number) {
      return db
        .select()
        .from(invites)
        .where(and(isNull(invites.usedAt), gt(invites.expiresAt, now)))
        .orderBy(sql`${invites.createdAt} desc`)
        .all();
    },
    /** Marks an invitation used, if it still was open: false when it was used (or expired) already. */
    useInvite(id: string, usedBy: string, now: number): boolean {
      return (
        db
          .update(invites)
          .set({ usedBy, usedAt: now })
          .where(and(eq(invites.id, id), isNull(invites.usedAt), gt(invites.expiresAt, now)))
          .run().changes > 0
      );
    },
    deleteInvite(id: string): boolean {
      return db.delete(invites).where(eq(invites.id, id)).run().changes > 0;
    },
    /** Removes the person and ends their sessions, in one step. */
    deleteUser(id: string) {
      db.transaction((tx) => {
        tx.delete(sessions).where(eq(sessions.userId, id)).run();
        tx.delete(users).where(eq(users.id, id)).run();
      });
    },
  };
}
