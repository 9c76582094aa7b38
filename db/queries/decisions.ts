import { and, asc, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { DecideAnswer, DecisionRecord } from '@/lib/contract/decisions';
import { prepared, type EngineDb, type Tables } from '../engine';

export type StoredDecision = {
  stepId: string;
  at: number;
  modelId: string;
  source: DecisionRecord['source'];
  answers: Record<string, DecideAnswer>;
  turnId: string | null;
};

const toRecord = (r: Tables['decisionRecords']['$inferSelect']): StoredDecision => ({
  stepId: r.stepId,
  at: r.at,
  modelId: r.modelId,
  source: r.source,
  answers: JSON.parse(r.answers) as Record<string, DecideAnswer>,
  turnId: r.turnId,
});

export function decisionQueries(db: EngineDb) {
  const { decisionRecords } = db.tables;
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const ofThread = prepared(db, () =>
    db
      .select()
      .from(decisionRecords)
      .where(
        and(
          eq(decisionRecords.layerId, sql.placeholder('layerId')),
          eq(decisionRecords.scope, 'thread'),
          eq(decisionRecords.scopeKey, sql.placeholder('threadId')),
        ),
      )
      .orderBy(asc(decisionRecords.id)),
  );
  return {
    /** Appends records to a scope and drops the oldest beyond maxRecords, in one transaction. */
    async appendDecisions({
      layerId,
      scope,
      scopeKey,
      records,
      maxRecords,
      turnId,
      threadId,
    }: {
      layerId: string;
      scope: 'execution' | 'thread' | 'resource';
      scopeKey: string;
      records: Omit<StoredDecision, 'turnId'>[];
      maxRecords: number;
      turnId: string | null;
      threadId: string | null;
    }) {
      await db.atomically(async () => {
        for (const r of records) {
          await db.insert(decisionRecords).values({
            layerId,
            scope,
            scopeKey,
            turnId,
            // A thread-scoped record's thread is its scope key: not stored twice.
            threadId: scope === 'thread' ? null : threadId,
            stepId: r.stepId,
            at: r.at,
            modelId: r.modelId,
            source: r.source,
            answers: JSON.stringify(r.answers),
          });
        }
        const where = and(eq(decisionRecords.layerId, layerId), eq(decisionRecords.scope, scope), eq(decisionRecords.scopeKey, scopeKey));
        const keep = (
          await db.select({ id: decisionRecords.id }).from(decisionRecords).where(where).orderBy(desc(decisionRecords.id)).limit(maxRecords)
        ).map((r) => r.id);
        // keep is empty only when the scope has no records, so there is nothing to delete
        if (keep.length > 0) await db.delete(decisionRecords).where(and(where, notInArray(decisionRecords.id, keep)));
      });
    },

    async loadDecisions({ layerId, scope, scopeKey }: { layerId: string; scope: string; scopeKey: string }): Promise<StoredDecision[]> {
      return (
        await db
          .select()
          .from(decisionRecords)
          .where(
            and(eq(decisionRecords.layerId, layerId), eq(decisionRecords.scope, scope as 'thread'), eq(decisionRecords.scopeKey, scopeKey)),
          )
          .orderBy(asc(decisionRecords.id))
      ).map(toRecord);
    },

    /** A thread's records in a layer (kept by thread scope, at most the layer's limit), oldest first, with their row ids. */
    async decisionRowsOfThread({ threadId, layerId }: { threadId: string; layerId: string }) {
      return (await ofThread.execute({ threadId, layerId })).map((r) => ({ id: r.id, ...toRecord(r) }));
    },

    async decisionsOfThread({ threadId, layerId }: { threadId: string; layerId: string }): Promise<StoredDecision[]> {
      return (await this.decisionRowsOfThread({ threadId, layerId })).map(({ id: _id, ...record }) => record);
    },
  };
}
