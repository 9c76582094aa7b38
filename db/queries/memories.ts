import { desc, eq } from 'drizzle-orm';
import type { Memory } from '../rows';
import { changed, first, prepared, writtenRow, type EngineDb } from '../engine';

export function memoryQueries(db: EngineDb) {
  const { memories } = db.tables;
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const all = prepared(db, () => db.select().from(memories).orderBy(desc(memories.updatedAt)));
  return {
    async listMemories(): Promise<Memory[]> {
      return await all.execute();
    },
    async getMemory({ id }: { id: string }): Promise<Memory | undefined> {
      return first(await db.select().from(memories).where(eq(memories.id, id)));
    },
    async insertMemory({ id, text, now }: { id: string; text: string; now: number }): Promise<Memory> {
      return writtenRow(await db.insert(memories).values({ id, text, createdAt: now, updatedAt: now }).returning());
    },
    async updateMemory({ id, text, now }: { id: string; text: string; now: number }): Promise<Memory | undefined> {
      return first(await db.update(memories).set({ text, updatedAt: now }).where(eq(memories.id, id)).returning());
    },
    async deleteMemory({ id }: { id: string }): Promise<boolean> {
      return changed(await db.delete(memories).where(eq(memories.id, id))) > 0;
    },
  };
}
