import { eq, inArray } from 'drizzle-orm';
import { type EngineDb } from '../engine';

export function settingQueries(db: EngineDb) {
  const { settingProposals, settings } = db.tables;
  /** One setting stored as JSON, replacing the value it had. */
  const saveSetting = async (key: string, value: unknown, now: number) => {
    const json = JSON.stringify(value);
    await db
      .insert(settings)
      .values({ key, value: json, updatedAt: now })
      .onConflictDoUpdate({ target: settings.key, set: { value: json, updatedAt: now } });
  };
  return {
    /** Every stored setting, its value parsed (a value that is not JSON is left out: the default stands). */
    async storedSettings(): Promise<Record<string, unknown>> {
      const out: Record<string, unknown> = {};
      for (const row of await db.select().from(settings)) {
        try {
          out[row.key] = JSON.parse(row.value);
        } catch {
          // unreadable: as if unset
        }
      }
      return out;
    },

    /** Stores `set` and removes `reset` (back to the environment's value), in one transaction. */
    async writeSettings({ set, reset, now }: { set: Record<string, unknown>; reset: string[]; now: number }) {
      await db.atomically(async () => {
        // deleting by an empty list of keys deletes nothing
        if (reset.length) await db.delete(settings).where(inArray(settings.key, reset));
        for (const [key, value] of Object.entries(set)) await saveSetting(key, value, now);
      });
    },

    /** Settings an imported file proposed (lib/settings/proposals.ts), their values parsed; unreadable ones left out. */
    async settingProposals(): Promise<{ key: string; value: unknown; proposedAt: number }[]> {
      const out: { key: string; value: unknown; proposedAt: number }[] = [];
      for (const row of await db.select().from(settingProposals).orderBy(settingProposals.key)) {
        try {
          out.push({ key: row.key, value: JSON.parse(row.value), proposedAt: row.proposedAt });
        } catch {
          // unreadable: as if never proposed
        }
      }
      return out;
    },

    /** Puts proposals in force: stores each value as the page would and drops its proposal, in one transaction. */
    async acceptProposals({ set, now }: { set: Record<string, unknown>; now: number }) {
      await db.atomically(async () => {
        for (const [key, value] of Object.entries(set)) {
          await saveSetting(key, value, now);
          await db.delete(settingProposals).where(eq(settingProposals.key, key));
        }
      });
    },

    async dismissProposals(keys: string[]) {
      if (keys.length) await db.delete(settingProposals).where(inArray(settingProposals.key, keys));
    },
  };
}
