import { desc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { memories } from '../schema';
import type { Memory } from '../rows';

export function memoryQueries(db: Db) {
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const all = db.select().from(memories).orderBy(desc(memories.updatedAt)).prepare();
  return {
    listMemories(): Memory[] {
      return all.all();
    },
    getMemory({ id }: { id: string }): Memory | undefined {
      return db.select().from(memories).where(eq(memories.id, id)).get();
    },
    insertMemory({ id, text, now }: { id: string; text: string; now: number }): Memory {
      return db.insert(memories).values({ id, text, createdAt: now, updatedAt: now }).returning().get();
    },
    updateMemory({ id, text, now }: { id: string; text: string; now: number }): Memory | undefined {
      return db.update(memories).set({ text, updatedAt: now }).where(eq(memories.id, id)).returning().get();
    },
    deleteMemory({ id }: { id: string }): boolean {
      return db.delete(memories).where(eq(memories.id, id)).run().changes > 0;
    },
  };
}
