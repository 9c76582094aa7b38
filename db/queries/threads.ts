import type { Sampling } from '@/lib/contract/sampling';
import { and, count, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Thread } from '../rows';
import { changed, first, prepared, writtenRow, type EngineDb } from '../engine';

export type ThreadCursor = { pinned: boolean; updatedAt: number; id: string };

export function encodeCursor(c: ThreadCursor): string {
  return Buffer.from(JSON.stringify([c.pinned ? 1 : 0, c.updatedAt, c.id])).toString('base64url');
}

export function decodeCursor(raw: string): ThreadCursor | null {
  try {
    const [pinned, updatedAt, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    if ((pinned !== 0 && pinned !== 1) || typeof updatedAt !== 'number' || typeof id !== 'string') return null;
    return { pinned: pinned === 1, updatedAt, id };
  } catch {
    return null;
  }
}

export function threadQueries(db: EngineDb) {
  const { attachments, messages, threads } = db.tables;
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const threadById = prepared(db, () =>
    db
      .select()
      .from(threads)
      .where(eq(threads.id, sql.placeholder('id'))),
  );
  const touch = prepared(db, () =>
    db
      .update(threads)
      .set({ updatedAt: sql`${sql.placeholder('now')}` })
      .where(eq(threads.id, sql.placeholder('id'))),
  );
  const titleUntitled = prepared(db, () =>
    db
      .update(threads)
      .set({ title: sql`${sql.placeholder('title')}` })
      .where(and(eq(threads.id, sql.placeholder('id')), eq(threads.title, ''))),
  );
  return {
    async createThread({ id, title, now }: { id: string; title: string; now: number }): Promise<Thread> {
      // A title given when the thread is made is the user's own.
      return writtenRow(
        await db
          .insert(threads)
          .values({ id, title, titleSource: title ? 'user' : 'auto', createdAt: now, updatedAt: now })
          .returning(),
      );
    },

    async getThread({ id }: { id: string }): Promise<Thread | undefined> {
      return first(await threadById.execute({ id }));
    },

    /** Pinned first, then most recently active; keyset pagination on (pinned, updatedAt, id). */
    /**
     * A page of the thread list: by default every thread not archived; `folderId` narrows it to
     * one folder (null: threads in none); `archived` gives the archive instead.
     */
    async listThreads({
      limit,
      cursor,
      folderId,
      archived = false,
    }: {
      limit: number;
      cursor?: ThreadCursor;
      folderId?: string | null;
      archived?: boolean;
    }) {
      const after = cursor
        ? or(
            lt(threads.pinned, cursor.pinned),
            and(eq(threads.pinned, cursor.pinned), lt(threads.updatedAt, cursor.updatedAt)),
            and(eq(threads.pinned, cursor.pinned), eq(threads.updatedAt, cursor.updatedAt), lt(threads.id, cursor.id)),
          )
        : undefined;
      const rows = await db
        .select()
        .from(threads)
        .where(
          and(
            after,
            eq(threads.archived, archived),
            folderId === undefined ? undefined : folderId === null ? isNull(threads.folderId) : eq(threads.folderId, folderId),
          ),
        )
        .orderBy(desc(threads.pinned), desc(threads.updatedAt), desc(threads.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { threads: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
    },

    /**
     * The thread's own settings: its title (then the user's), pin, instructions, thinking, tools,
     * model. None is activity, so none moves it in the list (only a message does: touchThread).
     */
    async updateThread({
      id,
      patch,
    }: {
      id: string;
      patch: {
        title?: string;
        pinned?: boolean;
        systemPrompt?: string;
        thinking?: 'default' | 'on' | 'off' | null;
        disabledTools?: string[] | null;
        /** The model its turns ask for; null: the default. */
        model?: string | null;
        /** Sampling for its replies; null: each server's defaults. */
        sampling?: Sampling | null;
      };
    }): Promise<Thread | undefined> {
      return first(
        await db
          .update(threads)
          .set({ ...patch, ...(patch.title !== undefined ? { titleSource: 'user' as const } : {}) })
          .where(eq(threads.id, id))
          .returning(),
      );
    },

    /** Files a thread in a folder (null: none) or the archive; not a change of activity, so it keeps its place by time. */
    async fileThread({ id, folderId, archived }: { id: string; folderId?: string | null; archived?: boolean }) {
      const set = { ...(folderId !== undefined ? { folderId } : {}), ...(archived !== undefined ? { archived } : {}) };
      if (Object.keys(set).length) await db.update(threads).set(set).where(eq(threads.id, id));
    },

    async touchThread({ id, now }: { id: string; now: number }) {
      await touch.execute({ id, now });
    },

    /**
     * The model's title for a thread, unless the user has named it meanwhile (or the thread is
     * gone). Not a change of activity: the thread keeps its place in the list.
     */
    async setModelTitle({ id, title }: { id: string; title: string }): Promise<boolean> {
      return (
        changed(
          await db
            .update(threads)
            .set({ title, titleSource: 'model' })
            .where(and(eq(threads.id, id), eq(threads.titleSource, 'auto'))),
        ) > 0
      );
    },

    /** Gives an untitled thread a title from its first message. */
    async titleIfUntitled({ id, title }: { id: string; title: string }) {
      await titleUntitled.execute({ id, title });
    },

    /** Deletes a thread with its messages, turns and the files sent in it (their text must not outlive it). */
    async deleteThread({ id }: { id: string }): Promise<boolean> {
      return db.atomically(async () => {
        const sent = db.select({ id: messages.id }).from(messages).where(eq(messages.threadId, id));
        await db.delete(attachments).where(inArray(attachments.messageId, sent));
        return changed(await db.delete(threads).where(eq(threads.id, id))) > 0;
      });
    },

    async countThreads(): Promise<number> {
      return first(await db.select({ n: count() }).from(threads))?.n ?? 0;
    },
  };
}
