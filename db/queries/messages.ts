import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { messages, toolCalls, turns, type Message, type MessageStatus } from '../schema';

export function messageQueries(db: Db) {
  return {
    insertMessage(row: {
      id: string;
      threadId: string;
      turnId: string | null;
      role: 'user' | 'assistant';
      content: string;
      status: MessageStatus;
      now: number;
    }): Message {
      return db
        .insert(messages)
        .values({
          id: row.id,
          threadId: row.threadId,
          turnId: row.turnId,
          role: row.role,
          content: row.content,
          status: row.status,
          createdAt: row.now,
        })
        .returning()
        .get();
    },

    updateMessage({
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
      db.update(messages).set({ content, status, errorCode }).where(eq(messages.id, id)).run();
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
        const kept = block!.split('\n').filter((l) => l !== line).join('\n');
        if (kept !== block) db.update(messages).set({ contextBlock: kept }).where(eq(messages.id, id)).run();
      }
    },

    getMessage({ id }: { id: string }) {
      return db.select().from(messages).where(eq(messages.id, id)).get();
    },

    listMessages({ threadId }: { threadId: string }): Message[] {
      return db
        .select()
        .from(messages)
        .where(eq(messages.threadId, threadId))
        .orderBy(asc(messages.createdAt), asc(messages.role))
        .all();
    },

    listToolCallsForThread({ threadId }: { threadId: string }) {
      return db
        .select()
        .from(toolCalls)
        .where(eq(toolCalls.threadId, threadId))
        .orderBy(asc(toolCalls.createdAt))
        .all();
    },

    insertToolCall(row: typeof toolCalls.$inferInsert) {
      db.insert(toolCalls).values(row).onConflictDoNothing().run();
    },

    /** The other side of an exchange: the assistant reply of a turn, or its question. */
    exchangeOf({ turnId }: { turnId: string }) {
      // Through the turn's row (messages.turn_id has no index: a lookup by it would read them all).
      const turn = db.select({ user: turns.userMessageId, assistant: turns.assistantMessageId }).from(turns).where(eq(turns.id, turnId)).get();
      if (!turn) return [];
      const ids = [turn.user, turn.assistant].filter((id): id is string => Boolean(id));
      return db.select().from(messages).where(inArray(messages.id, ids)).orderBy(asc(messages.createdAt)).all();
    },
  };
}
