import { and, asc, desc, eq, gt, inArray, sql, isNull } from 'drizzle-orm';
import type { DecideAnswer } from '@/lib/contract/decisions';
import type { TurnStats } from '@/lib/contract/events';
import type { Db } from '../client';
import { decisionRecords, messages, toolCalls, turnEvents, turns, turnSteps, type TurnStatus } from '../schema';

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

export function turnQueries(db: Db) {
  const compactLog = (turnId: string) => {
    const row = db.select({ events: turns.events }).from(turns).where(eq(turns.id, turnId)).get();
    return row?.events ? parseLog(row.events) : null;
  };
  // Every streamed token is an event row: the statement is prepared once, not per insert.
  const insertEvent = db
    .insert(turnEvents)
    .values({
      turnId: sql.placeholder('turnId'),
      seq: sql.placeholder('seq'),
      type: sql.placeholder('type'),
      data: sql.placeholder('data'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare();
  // Asked on every turn: prepared once (drizzle otherwise builds each query's SQL on every call).
  const insertQueued = db
    .insert(turns)
    .values({
      id: sql.placeholder('id'),
      threadId: sql.placeholder('threadId'),
      userMessageId: sql.placeholder('userMessageId'),
      assistantMessageId: sql.placeholder('assistantMessageId'),
      status: 'queued',
      createdAt: sql.placeholder('now'),
    })
    .prepare();
  const turnById = db
    .select()
    .from(turns)
    .where(eq(turns.id, sql.placeholder('id')))
    .prepare();
  const statusOnly = db
    .update(turns)
    .set({ status: sql`${sql.placeholder('status')}` })
    .where(eq(turns.id, sql.placeholder('id')))
    .prepare();
  const activeOfThread = db
    .select()
    .from(turns)
    .where(and(eq(turns.threadId, sql.placeholder('threadId')), inArray(turns.status, ['queued', 'running'])))
    .orderBy(desc(turns.createdAt))
    .prepare();
  const upsertStep = db
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
    })
    .prepare();
  return {
    insertTurn(row: { id: string; threadId: string; userMessageId: string; assistantMessageId: string; now: number }) {
      insertQueued.run(row);
    },

    getTurn({ id }: { id: string }) {
      return turnById.get({ id });
    },

    setTurnStatus({ id, status, stats, now }: { id: string; status: TurnStatus; stats?: Record<string, unknown>; now?: number }) {
      if (stats === undefined && now === undefined) {
        statusOnly.run({ id, status });
        return;
      }
      // drizzle leaves a column given as undefined as it was: a status change alone keeps stats and end time.
      db.update(turns)
        .set({ status, stats: stats === undefined ? undefined : encodeStats(stats), finishedAt: now })
        .where(eq(turns.id, id))
        .run();
    },

    /** Each finished turn's figures in a thread, by turn id (what the page shows under an answer). */
    turnStatsOfThread({ threadId }: { threadId: string }): Map<string, Record<string, unknown>> {
      const rows = db.select({ id: turns.id, stats: turns.stats }).from(turns).where(eq(turns.threadId, threadId)).all();
      return new Map(
        rows.flatMap((r) => {
          const stats = decodeStats(r.stats);
          return stats ? [[r.id, stats] as const] : [];
        }),
      );
    },

    /** The turn still queued or running in a thread, if any. */
    activeTurnOf({ threadId }: { threadId: string }) {
      return activeOfThread.get({ threadId });
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
      const log = compactLog(turnId);
      if (log) return log.filter((e) => e.seq > after);
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
    /**
     * The thinking before each of these turns' answers: the last `thinking` event after the turn's
     * last tool call, from the compacted log (or the rows of a turn not compacted yet).
     */
    answerThinkingOf({ turnIds }: { turnIds: string[] }): Map<string, string> {
      const out = new Map<string, string>();
      if (turnIds.length === 0) return out;
      const logs = db
        .select({ id: turns.id, events: turns.events })
        .from(turns)
        .where(and(inArray(turns.id, turnIds), sql`instr(${turns.events}, '"thinking"') > 0`))
        .all();
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
    eventsOfNotableTurns({ threadId }: { threadId: string }): Map<string, StoredEvent[]> {
      const out = new Map<string, StoredEvent[]>();
      const kept = new Set(['delta', 'draft', 'draft_rejected', 'calculation', 'memory', 'status', 'thinking', 'thought', 'tool_call']);
      // Tool calls only say where each round's thinking stands among them: kept where there is thinking.
      const rebuilding = (events: StoredEvent[]) => {
        const thinks = events.some((e) => e.type === 'thinking');
        return events.filter((e) => kept.has(e.type) && (e.type !== 'tool_call' || thinks));
      };
      const compacted = db
        .select({ id: turns.id, events: turns.events })
        .from(turns)
        .where(
          and(
            eq(turns.threadId, threadId),
            sql`(instr(${turns.events}, '"draft_rejected"') > 0 OR instr(${turns.events}, '"calculation"') > 0 OR instr(${turns.events}, '"thinking"') > 0 OR instr(${turns.events}, '"memory"') > 0)`,
          ),
        )
        .all();
      for (const t of compacted) out.set(t.id, rebuilding(parseLog(t.events!)));
      // Turns not compacted yet (running, or stopped by a crash) keep their events as rows.
      const notable = db
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
        .all()
        .map((r) => r.turnId);
      // an empty list of turns selects no rows, so out comes back as it is
      if (notable.length === 0) return out;
      const rows = db
        .select()
        .from(turnEvents)
        .where(and(inArray(turnEvents.turnId, notable), inArray(turnEvents.type, [...kept])))
        .orderBy(asc(turnEvents.turnId), asc(turnEvents.seq))
        .all();
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
    storeCompactLog({ turnId, events }: { turnId: string; events: { seq: number; type: string; data: unknown }[] }) {
      db.transaction((tx) => {
        tx.update(turns)
          .set({ events: JSON.stringify(events.map((e) => [e.seq, e.data])) })
          .where(eq(turns.id, turnId))
          .run();
        tx.delete(turnEvents).where(eq(turnEvents.turnId, turnId)).run();
      });
    },

    /** A finished turn never resumes: its step journal goes. */
    deleteTurnSteps({ turnId }: { turnId: string }) {
      db.delete(turnSteps).where(eq(turnSteps.turnId, turnId)).run();
    },

    /** What replaying a compacted turn reads back: its ids and stats, the answer, tool output, decision records. */
    turnFacts({ turnId, layerId }: { turnId: string; layerId: string }) {
      const turn = db.select().from(turns).where(eq(turns.id, turnId)).get();
      if (!turn) return undefined;
      const answer = turn.assistantMessageId
        ? db.select({ content: messages.content }).from(messages).where(eq(messages.id, turn.assistantMessageId)).get()
        : undefined;
      const calls = db.select().from(toolCalls).where(eq(toolCalls.turnId, turnId)).all();
      const decisions = db
        .select()
        .from(decisionRecords)
        .where(
          and(
            eq(decisionRecords.layerId, layerId),
            eq(decisionRecords.scope, 'thread'),
            eq(decisionRecords.scopeKey, turn.threadId),
            eq(decisionRecords.turnId, turnId),
          ),
        )
        .all();
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

    lastEventSeq({ turnId }: { turnId: string }): number {
      const log = compactLog(turnId);
      if (log) return log.at(-1)?.seq ?? 0;
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
      upsertStep.run({ turnId, seq, kind, data: JSON.stringify(data), now });
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
