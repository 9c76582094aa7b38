import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { messages, threads, toolCalls, type Message, type MessageStatus } from '../schema';

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

    /** Removes one line from every stored context block (a memory fact the user deleted or changed). */
    scrubContextLine({ line }: { line: string }) {
      db.update(messages)
        .set({ contextBlock: sql`replace(${messages.contextBlock}, ${`\n${line}\n`}, ${'\n'})` })
        .where(sql`instr(${messages.contextBlock}, ${`\n${line}\n`}) > 0`)
        .run();
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
      return db.select().from(messages).where(eq(messages.turnId, turnId)).orderBy(asc(messages.createdAt)).all();
    },
  };
}
