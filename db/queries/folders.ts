import { asc, count, eq } from 'drizzle-orm';
import type { Folder } from '../rows';
import { changed, first, writtenRow, type EngineDb } from '../engine';

export function folderQueries(db: EngineDb) {
  const { folders, threads } = db.tables;
  return {
    /** Every folder, by name, with how many threads are in it (the archived ones too). */
    async listFolders(): Promise<(Folder & { threads: number })[]> {
      const counts = new Map(
        (await db.select({ folderId: threads.folderId, n: count() }).from(threads).groupBy(threads.folderId)).map((r) => [r.folderId, r.n]),
      );
      return (await db.select().from(folders).orderBy(asc(folders.name), asc(folders.id))).map((f) => ({
        ...f,
        threads: counts.get(f.id) ?? 0,
      }));
    },

    async getFolder({ id }: { id: string }): Promise<Folder | undefined> {
      return first(await db.select().from(folders).where(eq(folders.id, id)));
    },

    async createFolder({ id, name, now }: { id: string; name: string; now: number }): Promise<Folder> {
      return writtenRow(await db.insert(folders).values({ id, name, createdAt: now }).returning());
    },

    async renameFolder({ id, name }: { id: string; name: string }): Promise<Folder | undefined> {
      return first(await db.update(folders).set({ name }).where(eq(folders.id, id)).returning());
    },

    /** Deletes a folder; its threads stay, in no folder. */
    async deleteFolder({ id }: { id: string }): Promise<boolean> {
      return db.atomically(async () => {
        await db.update(threads).set({ folderId: null }).where(eq(threads.folderId, id));
        return changed(await db.delete(folders).where(eq(folders.id, id))) > 0;
      });
    },
  };
}
