import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../client';
import { attachments, messages } from '../schema';

/** What a message shows of its attachments (the text stays for the model). */
const info = {
  id: attachments.id,
  messageId: attachments.messageId,
  name: attachments.name,
  mime: attachments.mime,
  size: attachments.size,
};

export function attachmentQueries(db: Db) {
  return {
    attachmentsFor({ messageIds }: { messageIds: string[] }) {
      if (messageIds.length === 0) return [];
      return db
        .select({ ...info, sha256: attachments.sha256 })
        .from(attachments)
        .where(inArray(attachments.messageId, messageIds))
        .all();
    },

    insertAttachment(row: { id: string; name: string; mime: string; size: number; sha256: string; text: string; now: number }) {
      const { now, ...rest } = row;
      return db.insert(attachments).values({ ...rest, createdAt: now }).returning().get();
    },

    /** Links uploaded attachments to the message they were sent with; returns how many were free to link. */
    linkAttachments({ ids, messageId }: { ids: string[]; messageId: string }): number {
      if (ids.length === 0) return 0;
      return db
        .update(attachments)
        .set({ messageId })
        .where(and(inArray(attachments.id, ids), isNull(attachments.messageId)))
        .run().changes;
    },

    /** Every attachment sent in a thread, oldest first, with its text. */
    attachmentsOfThread({ threadId }: { threadId: string }) {
      return db
        .select({ ...info, text: attachments.text, createdAt: messages.createdAt })
        .from(attachments)
        .innerJoin(messages, eq(messages.id, attachments.messageId))
        .where(eq(messages.threadId, threadId))
        .orderBy(asc(messages.createdAt), asc(attachments.createdAt))
        .all();
    },
  };
}
