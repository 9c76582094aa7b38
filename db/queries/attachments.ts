import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { attachments, collectionFiles, messages } from '../schema';
import type { FileKind } from '@/lib/contract/statuses';

/** What a message shows of its attachments (the text stays for the model). */
const info = {
  id: attachments.id,
  messageId: attachments.messageId,
  name: attachments.name,
  mime: attachments.mime,
  size: attachments.size,
  kind: attachments.kind,
  width: attachments.width,
  height: attachments.height,
};

export function attachmentQueries(db: Db) {
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const ofThread = db
    .select({
      ...info,
      sha256: attachments.sha256,
      text: attachments.text,
      chars: attachments.chars,
      lines: attachments.lines,
      createdAt: messages.createdAt,
    })
    .from(attachments)
    .innerJoin(messages, eq(messages.id, attachments.messageId))
    .where(eq(messages.threadId, sql.placeholder('threadId')))
    .orderBy(asc(messages.createdAt), asc(attachments.createdAt))
    .prepare();
  return {
    /** What the messages of a thread show of their attachments. */
    attachmentsOfThreadMessages({ threadId }: { threadId: string }) {
      return db
        .select({ ...info, sha256: attachments.sha256 })
        .from(attachments)
        .where(inArray(attachments.messageId, db.select({ id: messages.id }).from(messages).where(eq(messages.threadId, threadId))))
        .all();
    },

    insertAttachment(row: {
      id: string;
      name: string;
      mime: string;
      size: number;
      sha256: string;
      text: string;
      kind?: FileKind;
      chars?: number;
      lines?: number;
      width?: number | null;
      height?: number | null;
      now: number;
    }) {
      const { now, ...rest } = row;
      const lines = row.text ? row.text.split('\n').length - (row.text.endsWith('\n') ? 1 : 0) : 0;
      return db
        .insert(attachments)
        .values({ ...rest, chars: row.chars ?? row.text.length, lines: row.lines ?? lines, createdAt: now })
        .returning()
        .get();
    },

    /** One attachment's stored file, by its id. */
    attachmentFile({ id }: { id: string }) {
      return db
        .select({ ...info, sha256: attachments.sha256 })
        .from(attachments)
        .where(eq(attachments.id, id))
        .get();
    },

    /** Links uploaded attachments to the message they were sent with; returns how many were free to link. */
    linkAttachments({ ids, messageId }: { ids: string[]; messageId: string }): number {
      // an empty list links no row: the update would change nothing and report 0
      if (ids.length === 0) return 0;
      return db
        .update(attachments)
        .set({ messageId })
        .where(and(inArray(attachments.id, ids), isNull(attachments.messageId)))
        .run().changes;
    },

    /** An edited question keeps the files of the one it replaces: the same stored files, new rows for the new message. */
    copyAttachments({
      fromMessageId,
      toMessageId,
      newId,
      now,
    }: {
      fromMessageId: string;
      toMessageId: string;
      newId: () => string;
      now: number;
    }): number {
      const rows = db
        .select()
        .from(attachments)
        .where(eq(attachments.messageId, fromMessageId))
        .orderBy(asc(attachments.createdAt), asc(attachments.id))
        .all();
      for (const { searchRowid: _s, ...row } of rows)
        db.insert(attachments)
          .values({ ...row, id: newId(), messageId: toMessageId, createdAt: now })
          .run();
      return rows.length;
    },

    /** A file sent in this thread (an id from another thread is unknown here). */
    attachmentOfThread({ id, threadId }: { id: string; threadId: string }) {
      return db
        .select({ ...info, sha256: attachments.sha256, text: attachments.text, chars: attachments.chars, lines: attachments.lines })
        .from(attachments)
        .innerJoin(messages, eq(messages.id, attachments.messageId))
        .where(and(eq(attachments.id, id), eq(messages.threadId, threadId)))
        .get();
    },

    /** The stored files (by hash) sent in a thread, and whether any attachment still refers to one. */
    fileHashesOfThread({ threadId }: { threadId: string }): string[] {
      return db
        .selectDistinct({ sha256: attachments.sha256 })
        .from(attachments)
        .innerJoin(messages, eq(messages.id, attachments.messageId))
        .where(eq(messages.threadId, threadId))
        .all()
        .map((r) => r.sha256);
    },

    /** Whether an attachment or a knowledge collection still needs the file with these bytes. */
    isFileReferenced({ sha256 }: { sha256: string }): boolean {
      return (
        db.select({ id: attachments.id }).from(attachments).where(eq(attachments.sha256, sha256)).limit(1).get() !== undefined ||
        db.select({ id: collectionFiles.id }).from(collectionFiles).where(eq(collectionFiles.sha256, sha256)).limit(1).get() !== undefined
      );
    },

    /** Every attachment sent in a thread, oldest first, with its text. */
    attachmentsOfThread({ threadId }: { threadId: string }) {
      return ofThread.all({ threadId });
    },
  };
}
