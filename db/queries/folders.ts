import { asc, count, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { folders, threads } from '../schema';
import type { Folder } from '../rows';

export function folderQueries(db: Db) {
  return {
    /** Every folder, by name, with how many threads are in it (the archived ones too). */
    listFolders(): (Folder & { threads: number })[] {
      const counts = new Map(
        db
          .select({ folderId: threads.folderId, n: count() })
          .from(threads)
          .groupBy(threads.folderId)
          .all()
          .map((r) => [r.folderId, r.n]),
      );
      return db
        .select()
        .from(folders)
        .orderBy(asc(folders.name), asc(folders.id))
        .all()
        .map((f) => ({ ...f, threads: counts.get(f.id) ?? 0 }));
    },

    getFolder({ id }: { id: string }): Folder | undefined {
      return db.select().from(folders).where(eq(folders.id, id)).get();
    },

    createFolder({ id, name, now }: { id: string; name: string; now: number }): Folder {
      return db.insert(folders).values({ id, name, createdAt: now }).returning().get();
    },

    renameFolder({ id, name }: { id: string; name: string }): Folder | undefined {
      return db.update(folders).set({ name }).where(eq(folders.id, id)).returning().get();
    },

    /** Deletes a folder; its threads stay, in no folder. */
    deleteFolder({ id }: { id: string }): boolean {
      return db.transaction((tx) => {
        tx.update(threads).set({ folderId: null }).where(eq(threads.folderId, id)).run();
        return tx.delete(folders).where(eq(folders.id, id)).run().changes > 0;
      });
    },
  };
}
