import { and, asc, eq, gte, inArray, isNull, lt, max, sql } from 'drizzle-orm';
import type { QueueRow, QueueStore } from '@/lib/contract/model-queue';
import { changed, first, type EngineDb } from '../engine';

/** The shared queue of the model servers' slots (lib/models/shared-queue.ts). */
export function modelQueueQueries(db: EngineDb): QueueStore {
  const { modelQueue } = db.tables;
  return {
    /** One look at the queue (lib/contract/model-queue.ts says what it does). */
    async settleModelQueue({ process, now, until, join = [], leave = [], lineUp, decide }) {
      return db.exclusively('hearth model queue', async () => {
        // Its own rows first: a process that looks is alive, however late its renewal came.
        await db.update(modelQueue).set({ leaseUntil: until }).where(eq(modelQueue.process, process));
        let touched = changed(await db.delete(modelQueue).where(lt(modelQueue.leaseUntil, now))) > 0;
        if (leave.length)
          touched =
            changed(await db.delete(modelQueue).where(and(eq(modelQueue.process, process), inArray(modelQueue.turnId, [...leave])))) > 0 ||
            touched;
        const rowsNow = async (): Promise<QueueRow[]> =>
          (await db.select().from(modelQueue).orderBy(asc(modelQueue.seq))).map((r) => ({
            ...r,
            seq: Number(r.seq),
            slot: r.slot === null ? null : Number(r.slot),
            leaseUntil: Number(r.leaseUntil),
          }));
        for (const entry of join) {
          // A turn joining again (moving off a failed server, or taken over) gives up its old place.
          const others = (await rowsNow()).filter((r) => r.turnId !== entry.turnId);
          const before = lineUp(others, entry);
          const at = others.find((r) => r.turnId === before)?.seq;
          let seq: number;
          if (at === undefined) seq = Number(first(await db.select({ seq: max(modelQueue.seq) }).from(modelQueue))?.seq ?? 0) + 1;
          else {
            // Everyone from its place back moves back one.
            await db
              .update(modelQueue)
              .set({ seq: sql`${modelQueue.seq} + 1` })
              .where(gte(modelQueue.seq, at));
            seq = at;
          }
          const row = { ...entry, process, seq, serverUrl: null, slot: null, refused: false, leaseUntil: until };
          await db.insert(modelQueue).values(row).onConflictDoUpdate({ target: modelQueue.turnId, set: row });
          touched = true;
        }
        const rows = await rowsNow();
        const grants = decide(rows);
        for (const grant of grants) {
          const set = 'refused' in grant ? { refused: true } : { serverUrl: grant.serverUrl, slot: grant.slot };
          await db
            .update(modelQueue)
            .set(set)
            .where(
              and(
                eq(modelQueue.turnId, grant.turnId),
                eq(modelQueue.process, process),
                isNull(modelQueue.serverUrl),
                eq(modelQueue.refused, false),
              ),
            );
          const row = rows.find((r) => r.turnId === grant.turnId);
          if (row) Object.assign(row, set);
        }
        return { rows, changed: touched || grants.length > 0 };
      });
    },
  };
}
