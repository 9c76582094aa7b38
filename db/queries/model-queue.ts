import { and, asc, count, eq, inArray, isNull, lt, max, ne } from 'drizzle-orm';
import { NO_ONES_ROUND, type QueueRow, type QueueStore } from '@/lib/contract/model-queue';
import { changed, first, type EngineDb } from '../engine';

/** The shared queue of the model servers' slots (lib/models/shared-queue.ts). */
export function modelQueueQueries(db: EngineDb): QueueStore {
  const { modelQueue } = db.tables;
  return {
    /** One look at the queue (lib/contract/model-queue.ts says what it does). */
    async settleModelQueue({ process, now, until, join = [], leave = [], decide }) {
      return db.exclusively('hearth model queue', async () => {
        // Its own rows first: a process that looks is alive, however late its renewal came.
        await db.update(modelQueue).set({ leaseUntil: until }).where(eq(modelQueue.process, process));
        let touched = changed(await db.delete(modelQueue).where(lt(modelQueue.leaseUntil, now))) > 0;
        if (leave.length)
          touched =
            changed(await db.delete(modelQueue).where(and(eq(modelQueue.process, process), inArray(modelQueue.turnId, [...leave])))) > 0 ||
            touched;
        for (const entry of join) {
          const last = first(await db.select({ seq: max(modelQueue.seq) }).from(modelQueue))?.seq;
          // Its round: how many turns of its person hold a slot or wait now (of no one: the last round there is).
          const round =
            entry.person === null
              ? NO_ONES_ROUND
              : Number(
                  first(
                    await db
                      .select({ n: count() })
                      .from(modelQueue)
                      .where(and(eq(modelQueue.person, entry.person), ne(modelQueue.turnId, entry.turnId))),
                  )?.n ?? 0,
                );
          const row = {
            ...entry,
            process,
            seq: Number(last ?? 0) + 1,
            round,
            serverUrl: null,
            slot: null,
            refused: false,
            leaseUntil: until,
          };
          await db.insert(modelQueue).values(row).onConflictDoUpdate({ target: modelQueue.turnId, set: row });
          touched = true;
        }
        const rows: QueueRow[] = (await db.select().from(modelQueue).orderBy(asc(modelQueue.seq))).map((r) => ({
          ...r,
          seq: Number(r.seq),
          round: Number(r.round),
          slot: r.slot === null ? null : Number(r.slot),
          leaseUntil: Number(r.leaseUntil),
        }));
        const grants = decide(rows);
        for (const grant of grants) {
          const set = 'refused' in grant ? { refused: true } : { serverUrl: grant.serverUrl, slot: grant.slot };
          await db
            .update(modelQueue)
            .set(set)
            .where(and(eq(modelQueue.turnId, grant.turnId), isNull(modelQueue.serverUrl), eq(modelQueue.refused, false)));
          const row = rows.find((r) => r.turnId === grant.turnId);
          if (row) Object.assign(row, set);
        }
        return { rows, changed: touched || grants.length > 0 };
      });
    },
  };
}
