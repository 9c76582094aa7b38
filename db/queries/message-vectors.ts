import { eq, inArray } from 'drizzle-orm';
import { hasVectorSearch, type Db } from '../client';
import { messages, messageVectors, threads, vectorIndex } from '../schema';
import { createBitsTable, MESSAGE_BITS_TABLE, rankedByCosine, vectorIndexHelpers } from './vector-index';

/**
 * Past conversations by meaning: each complete message's vector, kept whole in message_vectors
 * and binary-quantised in message_bits (a sqlite-vec table made with the first vectors), found
 * by a scan over the bits and ranked again by exact cosine, as the knowledge chunks are.
 */
export function messageVectorQueries(db: Db) {
  const sqlite = db.$client;
  const vectorsAvailable = hasVectorSearch(sqlite);
  const { tableExists, claimIndex } = vectorIndexHelpers(db);
  return {
    /** Complete messages with no vector yet, oldest first (past conversations searched by meaning). */
    messagesToEmbed({ limit }: { limit: number }): { id: string; text: string }[] {
      return sqlite
        .prepare(
          `select m.id, m.content as text from messages m left join message_vectors v on v.message_id = m.id
           where v.id is null and m.status = 'complete' and m.role in ('user', 'assistant') and m.content != '' order by m.created_at, m.id limit ?`,
        )
        .all(limit) as { id: string; text: string }[];
    },

    /** Keeps messages' vectors (normalised float32) from `model`, whole and quantised. */
    storeMessageVectors({ model, vectors }: { model: string; vectors: { messageId: string; vector: Float32Array }[] }) {
      if (vectors.length === 0) return;
      const dims = vectors[0].vector.length;
      db.transaction(() => {
        claimIndex(model, dims);
        if (vectorsAvailable && !tableExists(MESSAGE_BITS_TABLE)) createBitsTable(sqlite, MESSAGE_BITS_TABLE, dims);
        const insertBits = vectorsAvailable
          ? sqlite.prepare(`insert into ${MESSAGE_BITS_TABLE}(rowid, bits) values (?, vec_quantize_binary(?))`)
          : null;
        for (const { messageId, vector } of vectors) {
          const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
          // A message deleted while its batch was out is skipped (its foreign key would refuse the row).
          if (!db.select({ id: messages.id }).from(messages).where(eq(messages.id, messageId)).get()) continue;
          const row = db
            .insert(messageVectors)
            .values({ messageId, vector: bytes })
            .onConflictDoNothing()
            .returning({ id: messageVectors.id })
            .get();
          if (row) insertBits?.run(BigInt(row.id), bytes);
        }
      });
    },

    /** The messages nearest a (normalised) vector, with their thread, best first. */
    messagesNear({ vector, limit }: { vector: Float32Array; limit: number }) {
      if (!vectorsAvailable || !tableExists(MESSAGE_BITS_TABLE)) return [];
      const state = db.select().from(vectorIndex).where(eq(vectorIndex.id, 1)).get();
      if (!state || state.dims !== vector.length) return [];
      const found = sqlite
        .prepare(`select rowid as id from ${MESSAGE_BITS_TABLE} where bits match vec_quantize_binary(?) and k = ?`)
        .all(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), Math.max(limit * 4, 40)) as { id: number }[];
      if (found.length === 0) return [];
      const rows = db
        .select({
          id: messages.id,
          vector: messageVectors.vector,
          threadId: messages.threadId,
          role: messages.role,
          content: messages.content,
          createdAt: messages.createdAt,
          title: threads.title,
          archived: threads.archived,
        })
        .from(messageVectors)
        .innerJoin(messages, eq(messages.id, messageVectors.messageId))
        .innerJoin(threads, eq(threads.id, messages.threadId))
        .where(
          inArray(
            messageVectors.id,
            found.map((f) => f.id),
          ),
        )
        .all();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return rankedByCosine(
        rows.map((r) => ({ key: r.id, vector: r.vector })),
        vector,
        limit,
      ).map(({ key, similarity }) => {
        const { vector: _v, ...message } = byId.get(key)!;
        return { ...message, similarity };
      });
    },
  };
}
