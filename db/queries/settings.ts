import { inArray } from 'drizzle-orm';
import type { Db } from '../client';
import { settings } from '../schema';

export function settingQueries(db: Db) {
  return {
    /** Every stored setting, its value parsed (a value that is not JSON is left out: the default stands). */
    storedSettings(): Record<string, unknown> {
      const out: Record<string, unknown> = {};
      for (const row of db.select().from(settings).all()) {
        try {
          out[row.key] = JSON.parse(row.value);
        } catch {
          // unreadable: as if unset
        }
      }
      return out;
    },

    /** Stores `set` and removes `reset` (back to the environment's value), in one transaction. */
    writeSettings({ set, reset, now }: { set: Record<string, unknown>; reset: string[]; now: number }) {
      db.transaction((tx) => {
        // deleting by an empty list of keys deletes nothing
        if (reset.length) tx.delete(settings).where(inArray(settings.key, reset)).run();
        for (const [key, value] of Object.entries(set)) {
          const json = JSON.stringify(value);
          tx.insert(settings)
            .values({ key, value: json, updatedAt: now })
            .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt: now } })
            .run();
        }
      });
    },
  };
}
