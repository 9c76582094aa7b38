import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../client';
import { settingProposals, settings } from '../schema';

/** One setting stored as JSON, replacing the value it had. */
function saveSetting(tx: Pick<Db, 'insert'>, key: string, value: unknown, now: number) {
  const json = JSON.stringify(value);
  tx.insert(settings)
    .values({ key, value: json, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt: now } })
    .run();
}

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
        for (const [key, value] of Object.entries(set)) saveSetting(tx, key, value, now);
      });
    },

    /** Settings an imported file proposed (lib/settings/proposals.ts), their values parsed; unreadable ones left out. */
    settingProposals(): { key: string; value: unknown; proposedAt: number }[] {
      const out: { key: string; value: unknown; proposedAt: number }[] = [];
      for (const row of db.select().from(settingProposals).orderBy(settingProposals.key).all()) {
        try {
          out.push({ key: row.key, value: JSON.parse(row.value), proposedAt: row.proposedAt });
        } catch {
          // unreadable: as if never proposed
        }
      }
      return out;
    },

    /** Puts proposals in force: stores each value as the page would and drops its proposal, in one transaction. */
    acceptProposals({ set, now }: { set: Record<string, unknown>; now: number }) {
      db.transaction((tx) => {
        for (const [key, value] of Object.entries(set)) {
          saveSetting(tx, key, value, now);
          tx.delete(settingProposals).where(eq(settingProposals.key, key)).run();
        }
      });
    },

    dismissProposals(keys: string[]) {
      if (keys.length) db.delete(settingProposals).where(inArray(settingProposals.key, keys)).run();
    },
  };
}
