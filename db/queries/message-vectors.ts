import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { first, type EngineDb } from '../engine';
import { claimVectorIndex, MESSAGE_BITS_TABLE, rankedByCosine, type QuantisedVectors } from './vector-index';

/** The ids (message_vectors.id) of the `k` messages nearest a vector, found below the store (pgvector): the candidates to rank. */
export type NearestMessages = (vector: Float32Array, k: number) => Promise<number[]>;

/**
 * Past conversations by meaning: each complete message's vector, kept whole in message_vectors.
 * On SQLite with sqlite-vec it is also binary-quantised in message_bits (made with the first
 * vectors), and a scan over the bits finds the candidates, ranked again by exact cosine as the
 * knowledge chunks are; on PostgreSQL pgvector finds them where the server has it
 * (db/pg/pgvector.ts), else every whole vector is ranked.
 */
export function messageVectorQueries(db: EngineDb, bits: QuantisedVectors | null, nearestMessages?: NearestMessages) {
  const { messages, messageVectors, threads, vectorIndex } = db.tables;
  return {
    /** Complete messages with no vector yet, oldest first (past conversations searched by meaning). */
    async messagesToEmbed({ limit }: { limit: number }): Promise<{ id: string; text: string }[]> {
      return await db
        .select({ id: messages.id, text: messages.content })
        .from(messages)
        .leftJoin(messageVectors, eq(messageVectors.messageId, messages.id))
        .where(
          and(
            isNull(messageVectors.id),
            eq(messages.status, 'complete'),
            inArray(messages.role, ['user', 'assistant']),
            ne(messages.content, ''),
          ),
        )
        .orderBy(asc(messages.createdAt), asc(messages.id))
        .limit(limit);
    },

    /** Keeps messages' vectors (normalised float32) from `model`, whole and quantised. */
    async storeMessageVectors({ model, vectors }: { model: string; vectors: { messageId: string; vector: Float32Array }[] }) {
      if (vectors.length === 0) return;
      const dims = vectors[0].vector.length;
      await db.atomically(async () => {
        await claimVectorIndex(db, model, dims);
        for (const { messageId, vector } of vectors) {
          const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
          // A message deleted while its batch was out is skipped (its foreign key would refuse the row).
          if (!first(await db.select({ id: messages.id }).from(messages).where(eq(messages.id, messageId)))) continue;
          const row = first(
            await db.insert(messageVectors).values({ messageId, vector: bytes }).onConflictDoNothing().returning({ id: messageVectors.id }),
          );
          if (row) bits?.keepMessage(row.id, bytes, dims);
        }
      });
    },

    /** The messages nearest a (normalised) vector, with their thread, best first. */
    async messagesNear({ vector, limit }: { vector: Float32Array; limit: number }) {
      if (db.engine === 'sqlite' && !bits?.has(MESSAGE_BITS_TABLE)) return [];
      const state = first(await db.select().from(vectorIndex).where(eq(vectorIndex.id, 1)));
      if (!state || state.dims !== vector.length) return [];
      // SQLite's bits or pgvector give the candidates; PostgreSQL without pgvector ranks every vector kept.
      const k = Math.max(limit * 4, 40);
      const candidates = bits ? bits.nearestMessages(vector, k) : nearestMessages ? await nearestMessages(vector, k) : null;
      if (candidates?.length === 0) return [];
      // Ranked on the vectors alone; only the best are read whole.
      const scored = await db
        .select({ id: messages.id, vector: messageVectors.vector })
        .from(messageVectors)
        .innerJoin(messages, eq(messages.id, messageVectors.messageId))
        .where(candidates ? inArray(messageVectors.id, candidates) : undefined);
      const best = rankedByCosine(
        scored.map((r) => ({ key: r.id, vector: r.vector })),
        vector,
        limit,
      );
      if (best.length === 0) return [];
      const found = await db
        .select({
          id: messages.id,
          threadId: messages.threadId,
          role: messages.role,
          content: messages.content,
          createdAt: messages.createdAt,
          title: threads.title,
          archived: threads.archived,
        })
        .from(messages)
        .innerJoin(threads, eq(threads.id, messages.threadId))
        .where(
          inArray(
            messages.id,
            best.map((b) => b.key),
          ),
        );
      const byId = new Map(found.map((m) => [m.id, m]));
      return best.flatMap(({ key, similarity }) => {
        const message = byId.get(key);
        return message ? [{ ...message, similarity }] : [];
      });
    },
  };
}
