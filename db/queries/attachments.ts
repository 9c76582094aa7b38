import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FileKind } from '@/lib/contract/statuses';
import { changed, first, prepared, writtenRow, type EngineDb } from '../engine';

export function attachmentQueries(db: EngineDb) {
  const { attachments, collectionFiles, messages } = db.tables;
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
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const ofThread = prepared(db, () =>
    db
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
      .orderBy(asc(messages.createdAt), asc(attachments.createdAt)),
  );
  return {
    /** What the messages of a thread show of their attachments. */
    async attachmentsOfThreadMessages({ threadId }: { threadId: string }) {
      return await db
        .select({ ...info, sha256: attachments.sha256 })
        .from(attachments)
        .where(inArray(attachments.messageId, db.select({ id: messages.id }).from(messages).where(eq(messages.threadId, threadId))));
    },

    async insertAttachment(row: {
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
      return writtenRow(
        await db
          .insert(attachments)
          .values({ ...rest, chars: row.chars ?? row.text.length, lines: row.lines ?? lines, createdAt: now })
          .returning(),
      );
    },

    /** One attachment's stored file, by its id. */
    async attachmentFile({ id }: { id: string }) {
      return first(
        await db
          .select({ ...info, sha256: attachments.sha256 })
          .from(attachments)
          .where(eq(attachments.id, id)),
      );
    },

    /** Links uploaded attachments to the message they were sent with; returns how many were free to link. */
    async linkAttachments({ ids, messageId }: { ids: string[]; messageId: string }): Promise<number> {
      // an empty list links no row: the update would change nothing and report 0
      if (ids.length === 0) return 0;
      return changed(
        await db
          .update(attachments)
          .set({ messageId })
          .where(and(inArray(attachments.id, ids), isNull(attachments.messageId))),
      );
    },

    /** An edited question keeps the files of the one it replaces: the same stored files, new rows for the new message. */
    async copyAttachments({
      fromMessageId,
      toMessageId,
      newId,
      now,
    }: {
      fromMessageId: string;
      toMessageId: string;
      newId: () => string;
      now: number;
    }): Promise<number> {
      const rows = await db
        .select()
        .from(attachments)
        .where(eq(attachments.messageId, fromMessageId))
        .orderBy(asc(attachments.createdAt), asc(attachments.id));
      for (const { searchRowid: _s, ...row } of rows)
        await db.insert(attachments).values({ ...row, id: newId(), messageId: toMessageId, createdAt: now });
      return rows.length;
    },

    /** A file sent in this thread (an id from another thread is unknown here). */
    async attachmentOfThread({ id, threadId }: { id: string; threadId: string }) {
      return first(
        await db
          .select({ ...info, sha256: attachments.sha256, text: attachments.text, chars: attachments.chars, lines: attachments.lines })
          .from(attachments)
          .innerJoin(messages, eq(messages.id, attachments.messageId))
          .where(and(eq(attachments.id, id), eq(messages.threadId, threadId))),
      );
    },

    /** The stored files (by hash) sent in a thread, and whether any attachment still refers to one. */
    async fileHashesOfThread({ threadId }: { threadId: string }): Promise<string[]> {
      return (
        await db
          .selectDistinct({ sha256: attachments.sha256 })
          .from(attachments)
          .innerJoin(messages, eq(messages.id, attachments.messageId))
          .where(eq(messages.threadId, threadId))
      ).map((r) => r.sha256);
    },

    /** Whether an attachment or a knowledge collection still needs the file with these bytes. */
    async isFileReferenced({ sha256 }: { sha256: string }): Promise<boolean> {
      return (
        first(await db.select({ id: attachments.id }).from(attachments).where(eq(attachments.sha256, sha256)).limit(1)) !== undefined ||
        first(await db.select({ id: collectionFiles.id }).from(collectionFiles).where(eq(collectionFiles.sha256, sha256)).limit(1)) !==
          undefined
      );
    },

    /** Every attachment sent in a thread, oldest first, with its text. */
    async attachmentsOfThread({ threadId }: { threadId: string }) {
      return await ofThread.execute({ threadId });
    },
  };
}
