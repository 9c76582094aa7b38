import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { attachments, decisionRecords, messages, threads, toolCalls, turns, type MessageStatus } from '../schema';
import type { Message } from '../rows';

export function messageQueries(db: Db) {
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const insert = db
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
    .returning()
    .prepare();
  const ofThread = db
    .select()
    .from(messages)
    .where(eq(messages.threadId, sql.placeholder('threadId')))
    .orderBy(asc(messages.createdAt), asc(messages.role), asc(messages.id))
    .prepare();
  const leaf = db
    .update(threads)
    .set({ currentLeafId: sql`${sql.placeholder('leafId')}` })
    .where(eq(threads.id, sql.placeholder('threadId')))
    .prepare();
  return {
    insertMessage(row: {
      id: string;
      threadId: string;
      turnId: string | null;
      /** The message this one follows (null: a first message). */
      parentId: string | null;
      role: 'user' | 'assistant';
      content: string;
      status: MessageStatus;
      now: number;
    }): Message {
      return insert.get(row);
    },

    updateMessage({ id, content, status, errorCode }: { id: string; content?: string; status?: MessageStatus; errorCode?: string | null }) {
      db.update(messages).set({ content, status, errorCode }).where(eq(messages.id, id)).run();
    },

    setMessageModel({ id, model }: { id: string; model: string | null }) {
      db.update(messages).set({ model }).where(eq(messages.id, id)).run();
    },

    /** The user's thumbs on an answer of this thread (null takes them back); false when the thread has no such answer. */
    setRating({ threadId, id, rating }: { threadId: string; id: string; rating: 1 | -1 | null }): boolean {
      const done = db
        .update(messages)
        .set({ rating })
        .where(and(eq(messages.id, id), eq(messages.threadId, threadId), eq(messages.role, 'assistant')))
        .run();
      return done.changes === 1;
    },

    /** Thumbs up and down by the model that wrote the answers (answers of no known model are not counted). */
    ratingsByModel(): Map<string, { up: number; down: number }> {
      const rows = db
        .select({
          model: messages.model,
          up: sql<number>`sum(${messages.rating} = 1)`,
          down: sql<number>`sum(${messages.rating} = -1)`,
        })
        .from(messages)
        .where(and(sql`${messages.rating} is not null`, sql`${messages.model} is not null`))
        .groupBy(messages.model)
        .all();
      return new Map(rows.map((r) => [r.model!, { up: Number(r.up), down: Number(r.down) }]));
    },

    setContextBlock({ id, contextBlock }: { id: string; contextBlock: string | null }) {
      db.update(messages).set({ contextBlock }).where(eq(messages.id, id)).run();
    },

    /** Removes one whole line from every stored context block (a memory fact the user deleted or changed). */
    scrubContextLine({ line }: { line: string }) {
      const holding = db
        .select({ id: messages.id, block: messages.contextBlock })
        .from(messages)
        .where(sql`instr(${messages.contextBlock}, ${line}) > 0`)
        .all();
      for (const { id, block } of holding) {
        const kept = block!
          .split('\n')
          .filter((l) => l !== line)
          .join('\n');
        // writing the same block again changes nothing
        if (kept !== block) db.update(messages).set({ contextBlock: kept }).where(eq(messages.id, id)).run();
      }
    },

    getMessage({ id }: { id: string }) {
      return db.select().from(messages).where(eq(messages.id, id)).get();
    },

    listMessages({ threadId }: { threadId: string }): Message[] {
      return ofThread.all({ threadId });
    },

    /** The branch a thread shows from now on (its last message). */
    setCurrentLeaf({ threadId, leafId }: { threadId: string; leafId: string | null }) {
      leaf.run({ threadId, leafId });
    },

    /**
     * Deletes messages of a thread (a message and what follows it) with the turns that asked or
     * answered them, their tool calls, events, steps and decision records, and the attachments
     * sent with them. Returns the hashes of the files those attachments named (the caller
     * removes the ones nothing refers to any more).
     */
    deleteMessages({ threadId, ids }: { threadId: string; ids: string[] }): string[] {
      // an empty list deletes nothing and names no file
      if (ids.length === 0) return [];
      return db.transaction((tx) => {
        const own = and(eq(messages.threadId, threadId), inArray(messages.id, ids));
        const gone = tx
          .select({ id: turns.id })
          .from(turns)
          .where(and(eq(turns.threadId, threadId), or(inArray(turns.userMessageId, ids), inArray(turns.assistantMessageId, ids))))
          .all()
          .map((t) => t.id);
        // deleting by an empty list of turns deletes nothing
        if (gone.length) {
          tx.delete(decisionRecords).where(inArray(decisionRecords.turnId, gone)).run();
          // Tool calls, events and steps go with their turn (foreign keys, on delete cascade).
          tx.delete(turns).where(inArray(turns.id, gone)).run();
        }
        const sent = tx.select({ id: messages.id }).from(messages).where(own);
        const files = tx
          .selectDistinct({ sha256: attachments.sha256 })
          .from(attachments)
          .where(inArray(attachments.messageId, sent))
          .all()
          .map((f) => f.sha256);
        tx.delete(attachments).where(inArray(attachments.messageId, sent)).run();
        tx.delete(messages).where(own).run();
        return files;
      });
    },

    listToolCallsForThread({ threadId }: { threadId: string }) {
      return db.select().from(toolCalls).where(eq(toolCalls.threadId, threadId)).orderBy(asc(toolCalls.createdAt)).all();
    },

    insertToolCall(row: typeof toolCalls.$inferInsert) {
      db.insert(toolCalls).values(row).onConflictDoNothing().run();
    },

    /** The other side of an exchange: the assistant reply of a turn, or its question. */
    exchangeOf({ turnId }: { turnId: string }) {
      // Through the turn's row (messages.turn_id has no index: a lookup by it would read them all).
      const turn = db
        .select({ user: turns.userMessageId, assistant: turns.assistantMessageId })
        .from(turns)
        .where(eq(turns.id, turnId))
        .get();
      if (!turn) return [];
      const ids = [turn.user, turn.assistant].filter((id): id is string => Boolean(id));
      return db.select().from(messages).where(inArray(messages.id, ids)).orderBy(asc(messages.createdAt)).all();
    },
  };
}
