import { asc, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { prompts } from '../schema';
import type { Prompt } from '../rows';

/** Saved prompts, by name. */
export function promptQueries(db: Db) {
  return {
    listPrompts(): Prompt[] {
      return db.select().from(prompts).orderBy(asc(prompts.name)).all();
    },
    getPrompt({ id }: { id: string }): Prompt | undefined {
      return db.select().from(prompts).where(eq(prompts.id, id)).get();
    },
    promptNamed({ name }: { name: string }): Prompt | undefined {
      return db.select().from(prompts).where(eq(prompts.name, name)).get();
    },
    insertPrompt({ id, name, text, now }: { id: string; name: string; text: string; now: number }): Prompt {
      return db.insert(prompts).values({ id, name, text, createdAt: now, updatedAt: now }).returning().get();
    },
    updatePrompt({ id, name, text, now }: { id: string; name?: string; text?: string; now: number }): Prompt | undefined {
      return db.update(prompts).set({ name, text, updatedAt: now }).where(eq(prompts.id, id)).returning().get();
    },
    deletePrompt({ id }: { id: string }): boolean {
      return db.delete(prompts).where(eq(prompts.id, id)).run().changes > 0;
    },
  };
}
