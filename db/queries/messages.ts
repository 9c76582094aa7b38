import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { type MessageStatus } from '../schema';
import type { Message } from '../rows';
import { changed, contains, countWhere, first, prepared, writtenRow, type EngineDb } from '../engine';

export function messageQueries(db: EngineDb) {
  const { attachments, decisionRecords, messages, threads, toolCalls, turns } = db.tables;
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const insert = prepared(db, () =>
    db
      .insert(messages)
      .values({
        id: sql.placeholder('id'),
        threadId: sql.placeholder('threadId'),
        turnId: sql.placeholder('turnId'),
        parentId: sql.placeholder('parentId'),
        role: sql.placeholder('role'),
        content: sql.placeholder('content'),
        status: sql.placeholder('status'),
        createdAt: sql.placeholder('now'),
      })
      .returning(),
  );
  const ofThread = prepared(db, () =>
    db
      .select()
      .from(messages)
      .where(eq(messages.threadId, sql.placeholder('threadId')))
      .orderBy(asc(messages.createdAt), asc(messages.role), asc(messages.id)),
  );
  const leaf = prepared(db, () =>
    db
      .update(threads)
      .set({ currentLeafId: sql`${sql.placeholder('leafId')}` })
      .where(eq(threads.id, sql.placeholder('threadId'))),
  );
  return {
    async insertMessage(row: {
      id: string;
      threadId: string;
      turnId: string | null;
      /** The message this one follows (null: a first message). */
      parentId: string | null;
      role: 'user' | 'assistant';
      content: string;
      status: MessageStatus;
      now: number;
    }): Promise<Message> {
      return writtenRow(await insert.execute(row));
    },

    async updateMessage({
      id,
      content,
      status,
      errorCode,
    }: {
      id: string;
      content?: string;
      status?: MessageStatus;
      errorCode?: string | null;
    }) {
      await db.update(messages).set({ content, status, errorCode }).where(eq(messages.id, id));
    },

    async setMessageModel({ id, model }: { id: string; model: string | null }) {
      await db.update(messages).set({ model }).where(eq(messages.id, id));
    },

    /** The user's thumbs on an answer of this thread (null takes them back); false when the thread has no such answer. */
    async setRating({ threadId, id, rating }: { threadId: string; id: string; rating: 1 | -1 | null }): Promise<boolean> {
      const done = await db
        .update(messages)
        .set({ rating })
        .where(and(eq(messages.id, id), eq(messages.threadId, threadId), eq(messages.role, 'assistant')));
      return changed(done) === 1;
    },

    /** Thumbs up and down by the model that wrote the answers (answers of no known model are not counted). */
    async ratingsByModel(): Promise<Map<string, { up: number; down: number }>> {
      const rows = await db
        .select({
          model: messages.model,
          up: countWhere(sql`${messages.rating} = 1`),
          down: countWhere(sql`${messages.rating} = -1`),
        })
        .from(messages)
        .where(and(sql`${messages.rating} is not null`, sql`${messages.model} is not null`))
        .groupBy(messages.model);
      return new Map(rows.map((r) => [r.model!, { up: Number(r.up), down: Number(r.down) }]));
    },

    async setContextBlock({ id, contextBlock }: { id: string; contextBlock: string | null }) {
      await db.update(messages).set({ contextBlock }).where(eq(messages.id, id));
    },

    /** Removes one whole line from every stored context block (a memory fact the user deleted or changed). */
    async scrubContextLine({ line }: { line: string }) {
      const holding = await db
        .select({ id: messages.id, block: messages.contextBlock })
        .from(messages)
        .where(contains(db, messages.contextBlock, line));
      for (const { id, block } of holding) {
        const kept = block!
          .split('\n')
          .filter((l) => l !== line)
          .join('\n');
        // writing the same block again changes nothing
        if (kept !== block) await db.update(messages).set({ contextBlock: kept }).where(eq(messages.id, id));
      }
    },

    async getMessage({ id }: { id: string }) {
      return first(await db.select().from(messages).where(eq(messages.id, id)));
    },

    async listMessages({ threadId }: { threadId: string }): Promise<Message[]> {
      return await ofThread.execute({ threadId });
    },

    /** The branch a thread shows from now on (its last message). */
    async setCurrentLeaf({ threadId, leafId }: { threadId: string; leafId: string | null }) {
      await leaf.execute({ threadId, leafId });
    },

    /**
     * Deletes messages of a thread (a message and what follows it) with the turns that asked or
     * answered them, their tool calls, events, steps and decision records, and the attachments
     * sent with them. Returns the hashes of the files those attachments named (the caller
     * removes the ones nothing refers to any more).
     */
    async deleteMessages({ threadId, ids }: { threadId: string; ids: string[] }): Promise<string[]> {
      // an empty list deletes nothing and names no file
      if (ids.length === 0) return [];
      return db.atomically(async () => {
        const own = and(eq(messages.threadId, threadId), inArray(messages.id, ids));
        const gone = (
          await db
            .select({ id: turns.id })
            .from(turns)
            .where(and(eq(turns.threadId, threadId), or(inArray(turns.userMessageId, ids), inArray(turns.assistantMessageId, ids))))
        ).map((t) => t.id);
        // deleting by an empty list of turns deletes nothing
        if (gone.length) {
          await db.delete(decisionRecords).where(inArray(decisionRecords.turnId, gone));
          // Tool calls, events and steps go with their turn (foreign keys, on delete cascade).
          await db.delete(turns).where(inArray(turns.id, gone));
        }
        const sent = db.select({ id: messages.id }).from(messages).where(own);
        const files = (
          await db.selectDistinct({ sha256: attachments.sha256 }).from(attachments).where(inArray(attachments.messageId, sent))
        ).map((f) => f.sha256);
        await db.delete(attachments).where(inArray(attachments.messageId, sent));
        await db.delete(messages).where(own);
        return files;
      });
    },

    async listToolCallsForThread({ threadId }: { threadId: string }) {
      return await db.select().from(toolCalls).where(eq(toolCalls.threadId, threadId)).orderBy(asc(toolCalls.createdAt), asc(toolCalls.id));
    },

    async insertToolCall(row: typeof toolCalls.$inferInsert) {
      await db.insert(toolCalls).values(row).onConflictDoNothing();
    },

    /** The other side of an exchange: the assistant reply of a turn, or its question. */
    async exchangeOf({ turnId }: { turnId: string }) {
      // Through the turn's row (messages.turn_id has no index: a lookup by it would read them all).
      const turn = first(
        await db.select({ user: turns.userMessageId, assistant: turns.assistantMessageId }).from(turns).where(eq(turns.id, turnId)),
      );
      if (!turn) return [];
      const ids = [turn.user, turn.assistant].filter((id): id is string => Boolean(id));
      // The question before its answer, even where both were stored in the same millisecond.
      return await db.select().from(messages).where(inArray(messages.id, ids)).orderBy(asc(messages.createdAt), desc(messages.role));
    },
  };
}
