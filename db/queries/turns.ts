import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { DecideAnswer } from '@/lib/contract/decisions';
import type { TurnStats } from '@/lib/contract/events';
import { type TurnStatus } from '../schema';
import { isUnfinishedTurn, unfinishedTurnStatuses } from '@/lib/contract/statuses';
import { contains, first, prepared, type EngineDb } from '../engine';

export type StoredEvent = { seq: number; type: string; data: Record<string, unknown> };
export type StoredStep = { seq: number; kind: string; data: unknown };

/** A compacted log as stored on the turn: [seq, entry] pairs (lib/turns/supervisor/compact.ts, toStored). */
function parseLog(json: string): StoredEvent[] {
  return (JSON.parse(json) as [number, Record<string, unknown> | string][]).map(([seq, data]) => ({
    seq,
    type: typeof data === 'string' ? data : String(data.type ?? Object.keys(data)[0]),
    data: data as Record<string, unknown>,
  }));
}

/** A turn's stats as stored: the figures in a fixed order, as a JSON array (a third of the object's size), trailing zeros left out. */
const STATS_ORDER = [
  'rounds',
  'modelCalls',
  'toolCalls',
  'gateNudges',
  'promptTokens',
  'completionTokens',
  'fuelUsed',
  'ms',
  'modelMs',
  'compiled',
  'firstTokenMs',
  'tokensPerSecond',
  'firstThinkingMs',
  'thinkingTokens',
  'thinkingMs',
] as const satisfies readonly (keyof TurnStats)[];
/** Every figure of TurnStats has its place in the order: a new one that is not added here does not compile. */
const everyStatStored: Exclude<keyof TurnStats, (typeof STATS_ORDER)[number]> extends never ? true : never = true;
void everyStatStored;
/** Figures that are absent (not zero) when a turn has none: stored as 0, read back as missing. */
const OPTIONAL_STATS = [
  'firstTokenMs',
  'tokensPerSecond',
  'firstThinkingMs',
  'thinkingTokens',
  'thinkingMs',
] as const satisfies readonly (keyof TurnStats)[];
export function encodeStats(stats: Record<string, unknown>) {
  const figures = STATS_ORDER.map((k) => (typeof stats[k] === 'boolean' ? Number(stats[k]) : (stats[k] ?? 0)));
  // Trailing zeros are left out: they read back as zero (or missing), and most turns never think.
  while (figures.length > 1 && figures.at(-1) === 0) figures.pop();
  return figures;
}
export function decodeStats(stored: unknown): Record<string, unknown> | null {
  if (!Array.isArray(stored)) return (stored as Record<string, unknown> | null) ?? null;
  const out: Record<string, unknown> = Object.fromEntries(STATS_ORDER.map((k, i) => [k, stored[i] ?? 0]));
  if (out.compiled) out.compiled = true;
  else delete out.compiled;
  for (const k of OPTIONAL_STATS) if (!out[k]) delete out[k];
  return out;
}

export function turnQueries(db: EngineDb) {
  const { decisionRecords, messages, toolCalls, turnEvents, turnSteps, turns } = db.tables;
  const compactLog = async (turnId: string) => {
    const row = first(await db.select({ events: turns.events }).from(turns).where(eq(turns.id, turnId)));
    return row?.events ? parseLog(row.events) : null;
  };
  // Every streamed token is an event row: the statement is prepared once, not per insert.
  const insertEvent = prepared(db, () =>
    db.insert(turnEvents).values({
      turnId: sql.placeholder('turnId'),
      seq: sql.placeholder('seq'),
      type: sql.placeholder('type'),
      data: sql.placeholder('data'),
      createdAt: sql.placeholder('createdAt'),
    }),
  );
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const insertQueued = prepared(db, () =>
    db.insert(turns).values({
      id: sql.placeholder('id'),
      threadId: sql.placeholder('threadId'),
      userMessageId: sql.placeholder('userMessageId'),
      assistantMessageId: sql.placeholder('assistantMessageId'),
      status: 'queued',
      createdAt: sql.placeholder('now'),
    }),
  );
  const turnById = prepared(db, () =>
    db
      .select()
      .from(turns)
      .where(eq(turns.id, sql.placeholder('id'))),
  );
  const statusOnly = prepared(db, () =>
    db
      .update(turns)
      .set({ status: sql`${sql.placeholder('status')}` })
      .where(eq(turns.id, sql.placeholder('id'))),
  );
  const activeOfThread = prepared(db, () =>
    db
      .select()
      .from(turns)
      .where(and(eq(turns.threadId, sql.placeholder('threadId')), inArray(turns.status, [...unfinishedTurnStatuses])))
      .orderBy(desc(turns.createdAt)),
  );
  const upsertStep = prepared(db, () =>
    db
      .insert(turnSteps)
      .values({
        turnId: sql.placeholder('turnId'),
        seq: sql.placeholder('seq'),
        kind: sql.placeholder('kind'),
        data: sql.placeholder('data'),
        createdAt: sql.placeholder('now'),
      })
      .onConflictDoUpdate({
        target: [turnSteps.turnId, turnSteps.seq],
        set: { kind: sql`excluded.kind`, data: sql`excluded.data`, createdAt: sql`excluded.created_at` },
      }),
  );
  return {
    async insertTurn(row: { id: string; threadId: string; userMessageId: string; assistantMessageId: string; now: number }) {
      await insertQueued.execute(row);
    },

    async getTurn({ id }: { id: string }) {
      return first(await turnById.execute({ id }));
    },

    async setTurnStatus({ id, status, stats, now }: { id: string; status: TurnStatus; stats?: Record<string, unknown>; now?: number }) {
      if (stats === undefined && now === undefined) {
        await statusOnly.execute({ id, status });
        return;
      }
      // drizzle leaves a column given as undefined as it was: a status change alone keeps stats and end time.
      const ended = !isUnfinishedTurn(status);
      await db
        .update(turns)
        .set({
          status,
          stats: stats === undefined ? undefined : encodeStats(stats),
          finishedAt: now,
          // An ended turn is no process's any more (its lease was only ever the running process's).
          ...(ended ? { leaseOwner: null, leaseUntil: null } : {}),
        })
        .where(eq(turns.id, id));
    },

    /** Each finished turn's figures in a thread, by turn id (what the page shows under an answer). */
    async turnStatsOfThread({ threadId }: { threadId: string }): Promise<Map<string, Record<string, unknown>>> {
      const rows = await db.select({ id: turns.id, stats: turns.stats }).from(turns).where(eq(turns.threadId, threadId));
      return new Map(
        rows.flatMap((r) => {
          const stats = decodeStats(r.stats);
          return stats ? [[r.id, stats] as const] : [];
        }),
      );
    },

    /** The turn still queued or running in a thread, if any. */
    async activeTurnOf({ threadId }: { threadId: string }) {
      return first(await activeOfThread.execute({ threadId }));
    },

    /**
     * Several processes on one database: this process takes a turn it began (or was handed), unless
     * another holds a lease on it that has not lapsed. False when it could not.
     */
    async claimTurn({ id, owner, until, now }: { id: string; owner: string; until: number; now: number }): Promise<boolean> {
      const taken = await db
        .update(turns)
        .set({ leaseOwner: owner, leaseUntil: until })
        .where(
          and(
            eq(turns.id, id),
            inArray(turns.status, [...unfinishedTurnStatuses]),
            or(isNull(turns.leaseOwner), eq(turns.leaseOwner, owner), lt(turns.leaseUntil, now)),
          ),
        )
        .returning({ id: turns.id });
      return taken.length > 0;
    },

    /** Renews this process's leases on these turns; answers the ids it still holds (another took the rest over). */
    async renewLeases({ owner, ids, until }: { owner: string; ids: string[]; until: number }): Promise<string[]> {
      if (!ids.length) return [];
      const held = await db
        .update(turns)
        .set({ leaseUntil: until })
        .where(and(inArray(turns.id, ids), eq(turns.leaseOwner, owner)))
        .returning({ id: turns.id });
      return held.map((t) => t.id);
    },

    /** Gives these turns up at once (a hand-over): any process may take them now. */
    async releaseLeases({ owner, ids }: { owner: string; ids: string[] }) {
      if (!ids.length) return;
      await db
        .update(turns)
        .set({ leaseOwner: null, leaseUntil: 0 })
        .where(and(inArray(turns.id, ids), eq(turns.leaseOwner, owner)));
    },

    /**
     * Takes the oldest unfinished turn whose lease lapsed or was given up, whose process is no longer
     * connected, or that no process leased before `unleasedBefore`; in one transaction, so of
     * processes asking at once only one gets it.
     */
    async takeLapsedTurn({
      owner,
      until,
      now,
      unleasedBefore,
      living,
    }: {
      owner: string;
      until: number;
      now: number;
      unleasedBefore: number;
      /** The processes connected now: a lease held by one not among them is as good as lapsed (it died). Unset: only lapsed leases count. */
      living?: string[];
    }) {
      return db.atomically(async () => {
        const lapsed = first(
          await db
            .select({
              id: turns.id,
              threadId: turns.threadId,
              userMessageId: turns.userMessageId,
              assistantMessageId: turns.assistantMessageId,
            })
            .from(turns)
            .where(
              and(
                inArray(turns.status, [...unfinishedTurnStatuses]),
                or(
                  lt(turns.leaseUntil, now),
                  and(isNull(turns.leaseUntil), lt(turns.createdAt, unleasedBefore)),
                  living ? and(isNotNull(turns.leaseOwner), notInArray(turns.leaseOwner, [owner, ...living])) : undefined,
                ),
              ),
            )
            .orderBy(asc(turns.createdAt), asc(turns.id))
            .limit(1),
        );
        if (!lapsed) return undefined;
        await db.update(turns).set({ leaseOwner: owner, leaseUntil: until }).where(eq(turns.id, lapsed.id));
        return lapsed;
      });
    },

    async unfinishedTurns() {
      return await db
        .select()
        .from(turns)
        .where(inArray(turns.status, [...unfinishedTurnStatuses]))
        .orderBy(asc(turns.createdAt));
    },

    async appendEvent({ turnId, seq, type, data, now }: { turnId: string; seq: number; type: string; data: unknown; now: number }) {
      await insertEvent.execute({ turnId, seq, type, data: JSON.stringify(data), createdAt: now });
    },

    async eventsAfter({ turnId, after }: { turnId: string; after: number }): Promise<StoredEvent[]> {
      // One snapshot: a log compacted between the two reads would otherwise be found in neither.
      return db.snapshot(async () => {
        const log = await compactLog(turnId);
        if (log) return log.filter((e) => e.seq > after);
        return (
          await db
            .select()
            .from(turnEvents)
            .where(and(eq(turnEvents.turnId, turnId), gt(turnEvents.seq, after)))
            .orderBy(asc(turnEvents.seq))
        ).map((r) => ({ seq: r.seq, type: r.type, data: JSON.parse(r.data) as Record<string, unknown> }));
      });
    },

    /**
     * The stored events of the turns that set a draft aside or ran a calculation, with the
     * deltas needed to rebuild the set-aside text (other turns are skipped: they have none).
     */
    /**
     * The thinking before each of these turns' answers: the last `thinking` event after the turn's
     * last tool call, from the compacted log (or the rows of a turn not compacted yet).
     */
    async answerThinkingOf({ turnIds }: { turnIds: string[] }): Promise<Map<string, string>> {
      const out = new Map<string, string>();
      if (turnIds.length === 0) return out;
      const logs = await db
        .select({ id: turns.id, events: turns.events })
        .from(turns)
        .where(and(inArray(turns.id, turnIds), contains(db, turns.events, '"thinking"')));
      for (const { id, events } of logs) {
        let text = '';
        for (const e of parseLog(events!)) {
          if (e.type === 'tool_call' || e.type === 'tool_result') text = '';
          else if (e.type === 'thinking') text = e.data.whole ? String(e.data.text) : text + String(e.data.text);
        }
        if (text.trim()) out.set(id, text.trim());
      }
      return out;
    },

    /** The events of a thread's turns that set a draft aside, calculated or thought: what the thread view rebuilds from them. */
    async eventsOfNotableTurns({ threadId }: { threadId: string }): Promise<Map<string, StoredEvent[]>> {
      const out = new Map<string, StoredEvent[]>();
      const kept = new Set(['delta', 'draft', 'draft_rejected', 'calculation', 'memory', 'status', 'thinking', 'thought', 'tool_call']);
      // Tool calls only say where each round's thinking stands among them: kept where there is thinking.
      const rebuilding = (events: StoredEvent[]) => {
        const thinks = events.some((e) => e.type === 'thinking');
        return events.filter((e) => kept.has(e.type) && (e.type !== 'tool_call' || thinks));
      };
      const compacted = await db
        .select({ id: turns.id, events: turns.events })
        .from(turns)
        .where(
          and(
            eq(turns.threadId, threadId),
            or(...['"draft_rejected"', '"calculation"', '"thinking"', '"memory"'].map((type) => contains(db, turns.events, type))),
          ),
        );
      for (const t of compacted) out.set(t.id, rebuilding(parseLog(t.events!)));
      // Turns not compacted yet (running, or stopped by a crash) keep their events as rows.
      const notable = (
        await db
          .selectDistinct({ turnId: turnEvents.turnId })
          .from(turnEvents)
          .where(
            and(
              inArray(
                turnEvents.turnId,
                db
                  .select({ id: turns.id })
                  .from(turns)
                  .where(and(eq(turns.threadId, threadId), isNull(turns.events))),
              ),
              inArray(turnEvents.type, ['draft_rejected', 'calculation', 'thinking', 'memory']),
            ),
          )
      ).map((r) => r.turnId);
      // an empty list of turns selects no rows, so out comes back as it is
      if (notable.length === 0) return out;
      const rows = await db
        .select()
        .from(turnEvents)
        .where(and(inArray(turnEvents.turnId, notable), inArray(turnEvents.type, [...kept])))
        .orderBy(asc(turnEvents.turnId), asc(turnEvents.seq));
      const running = new Map<string, StoredEvent[]>();
      for (const r of rows) {
        const list = running.get(r.turnId) ?? [];
        list.push({ seq: r.seq, type: r.type, data: JSON.parse(r.data) as Record<string, unknown> });
        running.set(r.turnId, list);
      }
      for (const [turnId, list] of running) out.set(turnId, rebuilding(list));
      return out;
    },

    /** Keeps a finished turn's compacted log (lib/turns/supervisor/compact.ts) on its row, in place of its event rows. */
    async storeCompactLog({ turnId, events }: { turnId: string; events: { seq: number; type: string; data: unknown }[] }) {
      await db.atomically(async () => {
        await db
          .update(turns)
          .set({ events: JSON.stringify(events.map((e) => [e.seq, e.data])) })
          .where(eq(turns.id, turnId));
        await db.delete(turnEvents).where(eq(turnEvents.turnId, turnId));
      });
    },

    /** A finished turn never resumes: its step journal goes. */
    async deleteTurnSteps({ turnId }: { turnId: string }) {
      await db.delete(turnSteps).where(eq(turnSteps.turnId, turnId));
    },

    /** What replaying a compacted turn reads back: its ids and stats, the answer, tool output, decision records. */
    async turnFacts({ turnId, layerId }: { turnId: string; layerId: string }) {
      const turn = first(await db.select().from(turns).where(eq(turns.id, turnId)));
      if (!turn) return undefined;
      const answer = turn.assistantMessageId
        ? first(await db.select({ content: messages.content }).from(messages).where(eq(messages.id, turn.assistantMessageId)))
        : undefined;
      const calls = await db.select().from(toolCalls).where(eq(toolCalls.turnId, turnId));
      const decisions = await db
        .select()
        .from(decisionRecords)
        .where(
          and(
            eq(decisionRecords.layerId, layerId),
            eq(decisionRecords.scope, 'thread'),
            eq(decisionRecords.scopeKey, turn.threadId),
            eq(decisionRecords.turnId, turnId),
          ),
        );
      return {
        turnId,
        threadId: turn.threadId,
        userMessageId: turn.userMessageId,
        assistantMessageId: turn.assistantMessageId ?? '',
        answer: answer?.content ?? '',
        stats: decodeStats(turn.stats),
        // Stored as `${turnId}:${id the model gave}` (lib/turns/supervisor/supervisor.ts).
        toolCalls: new Map(
          calls.map((c) => [
            c.id.slice(turnId.length + 1),
            { name: c.name, arguments: c.arguments, ok: c.ok, result: JSON.parse(c.result) as unknown, repeat: c.repeat },
          ]),
        ),
        decisions: new Map(
          decisions.map((d) => [
            d.id,
            {
              stepId: d.stepId,
              at: d.at,
              modelId: d.modelId,
              source: d.source,
              answers: JSON.parse(d.answers) as Record<string, DecideAnswer>,
            },
          ]),
        ),
      };
    },

    async lastEventSeq({ turnId }: { turnId: string }): Promise<number> {
      return db.snapshot(async () => {
        const log = await compactLog(turnId);
        if (log) return log.at(-1)?.seq ?? 0;
        const row = first(
          await db
            .select({ seq: turnEvents.seq })
            .from(turnEvents)
            .where(eq(turnEvents.turnId, turnId))
            .orderBy(desc(turnEvents.seq))
            .limit(1),
        );
        return row?.seq ?? 0;
      });
    },

    async appendStep({ turnId, seq, kind, data, now }: { turnId: string; seq: number; kind: string; data: unknown; now: number }) {
      // A resumed turn that took another path overwrites the steps it did not replay.
      await upsertStep.execute({ turnId, seq, kind, data: JSON.stringify(data), now });
    },

    async stepsOf({ turnId }: { turnId: string }): Promise<StoredStep[]> {
      return (await db.select().from(turnSteps).where(eq(turnSteps.turnId, turnId)).orderBy(asc(turnSteps.seq))).map((r) => ({
        seq: r.seq,
        kind: r.kind,
        data: JSON.parse(r.data) as unknown,
      }));
    },
  };
}
