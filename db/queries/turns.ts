import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { turnEvents, turns, turnSteps, type TurnStatus } from '../schema';

export type StoredEvent = { seq: number; type: string; data: Record<string, unknown> };
export type StoredStep = { seq: number; kind: string; data: unknown };

export function turnQueries(db: Db) {
  // Every streamed token is an event row: the statement is prepared once, not per insert.
  const insertEvent = db
    .insert(turnEvents)
    .values({ turnId: sql.placeholder('turnId'), seq: sql.placeholder('seq'), type: sql.placeholder('type'), data: sql.placeholder('data'), createdAt: sql.placeholder('createdAt') })
    .prepare();
  return {
    insertTurn(row: { id: string; threadId: string; userMessageId: string; assistantMessageId: string; now: number }) {
      db.insert(turns)
        .values({
          id: row.id,
          threadId: row.threadId,
          userMessageId: row.userMessageId,
          assistantMessageId: row.assistantMessageId,
          status: 'queued',
          createdAt: row.now,
        })
        .run();
    },

    getTurn({ id }: { id: string }) {
      return db.select().from(turns).where(eq(turns.id, id)).get();
    },

    setTurnStatus({ id, status, stats, now }: { id: string; status: TurnStatus; stats?: unknown; now?: number }) {
      db.update(turns)
        .set({ status, ...(stats !== undefined ? { stats } : {}), ...(now !== undefined ? { finishedAt: now } : {}) })
        .where(eq(turns.id, id))
        .run();
    },

    /** The turn still queued or running in a thread, if any. */
    activeTurnOf({ threadId }: { threadId: string }) {
      return db
        .select()
        .from(turns)
        .where(and(eq(turns.threadId, threadId), inArray(turns.status, ['queued', 'running'])))
        .orderBy(desc(turns.createdAt))
        .get();
    },

    unfinishedTurns() {
      return db
        .select()
        .from(turns)
        .where(inArray(turns.status, ['queued', 'running']))
        .orderBy(asc(turns.createdAt))
        .all();
    },

    appendEvent({ turnId, seq, type, data, now }: { turnId: string; seq: number; type: string; data: unknown; now: number }) {
      insertEvent.run({ turnId, seq, type, data: JSON.stringify(data), createdAt: now });
    },

    eventsAfter({ turnId, after }: { turnId: string; after: number }): StoredEvent[] {
      return db
        .select()
        .from(turnEvents)
        .where(and(eq(turnEvents.turnId, turnId), gt(turnEvents.seq, after)))
        .orderBy(asc(turnEvents.seq))
        .all()
        .map((r) => ({ seq: r.seq, type: r.type, data: JSON.parse(r.data) as Record<string, unknown> }));
    },

    /**
     * The stored events of the turns that set a draft aside or ran a calculation, with the
     * deltas needed to rebuild the set-aside text (other turns are skipped: they have none).
     */
    eventsOfNotableTurns({ turnIds }: { turnIds: string[] }): Map<string, StoredEvent[]> {
      const out = new Map<string, StoredEvent[]>();
      if (turnIds.length === 0) return out;
      const notable = db
        .selectDistinct({ turnId: turnEvents.turnId })
        .from(turnEvents)
        .where(and(inArray(turnEvents.turnId, turnIds), inArray(turnEvents.type, ['draft_rejected', 'calculation'])))
        .all()
        .map((r) => r.turnId);
      if (notable.length === 0) return out;
      const rows = db
        .select()
        .from(turnEvents)
        .where(and(inArray(turnEvents.turnId, notable), inArray(turnEvents.type, ['delta', 'draft_rejected', 'calculation', 'status'])))
        .orderBy(asc(turnEvents.turnId), asc(turnEvents.seq))
        .all();
      for (const r of rows) {
        const list = out.get(r.turnId) ?? [];
        list.push({ seq: r.seq, type: r.type, data: JSON.parse(r.data) as Record<string, unknown> });
        out.set(r.turnId, list);
      }
      return out;
    },

    lastEventSeq({ turnId }: { turnId: string }): number {
      const row = db
        .select({ seq: turnEvents.seq })
        .from(turnEvents)
        .where(eq(turnEvents.turnId, turnId))
        .orderBy(desc(turnEvents.seq))
        .get();
      return row?.seq ?? 0;
    },

    appendStep({ turnId, seq, kind, data, now }: { turnId: string; seq: number; kind: string; data: unknown; now: number }) {
      // A resumed turn that took another path overwrites the steps it did not replay.
      db.insert(turnSteps)
        .values({ turnId, seq, kind, data: JSON.stringify(data), createdAt: now })
        .onConflictDoUpdate({ target: [turnSteps.turnId, turnSteps.seq], set: { kind, data: JSON.stringify(data), createdAt: now } })
        .run();
    },

    stepsOf({ turnId }: { turnId: string }): StoredStep[] {
      return db
        .select()
        .from(turnSteps)
        .where(eq(turnSteps.turnId, turnId))
        .orderBy(asc(turnSteps.seq))
        .all()
        .map((r) => ({ seq: r.seq, kind: r.kind, data: JSON.parse(r.data) as unknown }));
    },
  };
}
