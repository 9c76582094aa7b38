import { Slot, type ContextLayer, type LayerCtx } from '@/lib/turns/context/layers';
import type { DecideAnswer, DecisionRecord } from '@/lib/contract/decisions';

/**
 * The decisions-history layer: records every decide step's answers through onDecision,
 * exposes them as data (`latest`, `all`), persists them by scope and renders a one-line
 * summary per step into later model calls.
 */

export type ContextScope = 'execution' | 'thread' | 'resource';

export interface DecisionStorage {
  load(args: { layerId: string; scope: ContextScope; scopeKey: string }): DecisionRecord[] | Promise<DecisionRecord[]>;
  append(args: {
    layerId: string;
    scope: ContextScope;
    scopeKey: string;
    record: DecisionRecord;
    maxRecords: number;
    ctx: LayerCtx;
  }): void | Promise<void>;
}

export type DecisionsHistoryConfig<Id extends string> = {
  id?: Id;
  scope?: ContextScope;
  maxRecords?: number;
  recall?: boolean;
  slot?: number;
  storage?: DecisionStorage;
};

export type DecisionsState = { records: DecisionRecord[]; inherited: number };
export type DecisionsProvides = {
  readonly latest: Readonly<Record<string, DecisionRecord>>;
  readonly all: ReadonlyArray<DecisionRecord>;
};

export const DEFAULT_MAX_RECORDS = 50;
/** The id of the decisions-history layer unless configured otherwise (it keys stored records). */
export const DECISIONS_LAYER_ID = 'decisionsHistory';

function scopeKeyOf(scope: ContextScope, ctx: LayerCtx): string {
  return scope === 'execution' ? ctx.executionId : scope === 'thread' ? ctx.threadId : ctx.resourceId;
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

export function renderAnswer(answer: DecideAnswer): string | null {
  if ('refused' in answer) return 'refused';
  switch (answer.kind) {
    case 'boolean':
      return `${answer.value ? 'yes' : 'no'} (${fmt(answer.p)})`;
    case 'choice':
      return `${answer.value} (${fmt(answer.p)})`;
    case 'score':
      return `${answer.level} (${fmt(answer.value)})`;
    case 'text':
      return null; // free text stays in the record, not in the summary line
  }
}

/**
 * "Decisions so far:" with one line per step id, newest record only; null when there is none.
 * The gate's records are left out: the verdict, the classifier's and the program's are Hearth's
 * reading of its own drafts, shown in the Checks, and tell the model nothing about the
 * conversation (the verdict now reads every answer, so it would stand in every later message).
 */
/** Decide steps that judge a draft rather than the conversation. */
const DRAFT_JUDGEMENTS = new Set(['verdict']);

export function renderDecisionsSummary(records: readonly DecisionRecord[]): string | null {
  const told = records.filter((r) => (r.source === 'native' || r.source === 'estimated') && !DRAFT_JUDGEMENTS.has(r.stepId));
  if (told.length === 0) return null;
  const latest = new Map<string, DecisionRecord>();
  for (const r of told) {
    latest.delete(r.stepId); // re-insert so the order follows the newest record of each step
    latest.set(r.stepId, r);
  }
  const lines = [...latest.values()].map((r) => {
    const parts = Object.entries(r.answers)
      .map(([key, a]) => {
        const text = renderAnswer(a);
        return text === null ? null : `${key}=${text}`;
      })
      .filter((p): p is string => p !== null);
    return `- ${r.stepId}: ${parts.join(', ')}`;
  });
  return `Decisions so far:\n${lines.join('\n')}`;
}

export function latestByStep(records: readonly DecisionRecord[]): Record<string, DecisionRecord> {
  const out: Record<string, DecisionRecord> = {};
  for (const r of records) out[r.stepId] = r;
  return out;
}

export function decisionsHistoryLayer<Id extends string = 'decisionsHistory'>(
  config: DecisionsHistoryConfig<Id> = {},
): ContextLayer<NoInfer<Id>, DecisionsState, DecisionsProvides> {
  const id = (config.id ?? DECISIONS_LAYER_ID) as Id;
  const scope = config.scope ?? 'execution';
  const maxRecords = config.maxRecords ?? DEFAULT_MAX_RECORDS;
  if (!Number.isInteger(maxRecords) || maxRecords < 1) throw new Error('maxRecords must be a whole number of at least 1');
  const recall = config.recall ?? true;
  const storage = config.storage;
  const trim = (records: DecisionRecord[]) => records.slice(Math.max(0, records.length - maxRecords));

  return {
    id,
    slot: config.slot ?? Slot.WORKING_MEMORY + 10,
    async init({ ctx }) {
      const records = storage ? trim(await storage.load({ layerId: id, scope, scopeKey: scopeKeyOf(scope, ctx) })) : [];
      return { records, inherited: 0 };
    },
    recall({ state }) {
      if (!recall || !state) return null;
      const summary = renderDecisionsSummary(state.records);
      return summary ? { system: summary } : null;
    },
    async onDecision({ state, record, ctx }) {
      const all = [...(state?.records ?? []), record];
      const records = trim(all);
      await storage?.append({ layerId: id, scope, scopeKey: scopeKeyOf(scope, ctx), record, maxRecords, ctx });
      // Records dropped from the front also leave the inherited part.
      return { state: { records, inherited: Math.max(0, (state?.inherited ?? 0) - (all.length - records.length)) } };
    },
    onSpawn({ parentState }) {
      const records = [...(parentState?.records ?? [])];
      return { records, inherited: records.length };
    },
    onReturn({ childState, parentState }) {
      const added = childState.records.slice(childState.inherited);
      return { records: trim([...(parentState?.records ?? []), ...added]), inherited: parentState?.inherited ?? 0 };
    },
    provides(state) {
      const all = state?.records ?? [];
      return { latest: latestByStep(all), all };
    },
  };
}
