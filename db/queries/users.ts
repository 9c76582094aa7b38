import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { sessions, users } from '../schema';
import type { Role } from '@/lib/contract/statuses';

/** The people who may log in (lib/services/auth/people.ts). */
export function userQueries(db: Db) {
  return {
    insertUser(row: { id: string; username: string; role: Role; passwordHash: string | null; library: string; createdAt: number }) {
      return db.insert(users).values(row).returning().get();
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
    updateUser(id: string, change: Partial<{ role: Role; passwordHash: string | null; disabled: boolean }>) {
      return db.update(users).set(change).where(eq(users.id, id)).returning().get();
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
