import { asc, eq } from 'drizzle-orm';
import type { Prompt } from '../rows';
import { changed, first, writtenRow, type EngineDb } from '../engine';

/** Saved prompts, by name. */
export function promptQueries(db: EngineDb) {
  const { prompts } = db.tables;
  return {
    async listPrompts(): Promise<Prompt[]> {
      return await db.select().from(prompts).orderBy(asc(prompts.name));
    },
    async getPrompt({ id }: { id: string }): Promise<Prompt | undefined> {
      return first(await db.select().from(prompts).where(eq(prompts.id, id)));
    },
    async promptNamed({ name }: { name: string }): Promise<Prompt | undefined> {
      return first(await db.select().from(prompts).where(eq(prompts.name, name)));
    },
    async insertPrompt({ id, name, text, now }: { id: string; name: string; text: string; now: number }): Promise<Prompt> {
      return writtenRow(await db.insert(prompts).values({ id, name, text, createdAt: now, updatedAt: now }).returning());
    },
    async updatePrompt({ id, name, text, now }: { id: string; name?: string; text?: string; now: number }): Promise<Prompt | undefined> {
      return first(await db.update(prompts).set({ name, text, updatedAt: now }).where(eq(prompts.id, id)).returning());
    },
    async deletePrompt({ id }: { id: string }): Promise<boolean> {
      return changed(await db.delete(prompts).where(eq(prompts.id, id))) > 0;
    },
  };
}
