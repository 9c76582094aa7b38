import type { ContextRuntime } from '@/lib/turns/context/layers';
import { saidYes } from '@/lib/contract/decisions';
import { defineDecideStep, parseAnswerJson } from '@/lib/turns/decide/decide';
import { describeTable, type AttachedTableRef } from '@/lib/data/tables/tables';
import { runTableQuery } from '@/lib/tools/query-table';
import type { ToolDeps } from '@/lib/tools/types';
import { isToolError } from '@/lib/tools/types';
import type { ChatMessage } from '@/lib/models/types';
import { z } from 'zod';
import { TABLE_FIGURE_SYSTEM, TABLE_PLAN_SYSTEM, tableResultNote } from './prompts';
import type { TurnIO } from './turn-io';

/**
 * Program-decided figures over an attached table, before the first round, as arithmetic is
 * (calculate-first.ts): a free check (a table on the branch, a figure word in the question)
 * and a boolean decide step decide whether the question asks for a figure from the table; the
 * model then writes only the plan, one SELECT as schema-checked data; the program checks it
 * (one read-only SELECT over the listed tables) and runs it; the answering round gets "The
 * exact result … is". The query and its rows are shown as query_table's card. Null when the
 * path does not apply or the plan could not be run (said in the diagnostics): the round then
 * has query_table itself.
 */

const FIGURE_WORDS =
  /\b(?:how\s+(?:much|many)|total|totals|sum|average|mean|median|count|number\s+of|spent|spend|spending|earned|paid|largest|biggest|smallest|highest|lowest|most|least|max(?:imum)?|min(?:imum)?|per\s+(?:month|week|day|year|category)|by\s+(?:month|category)|combien|total|gesamt|wie\s+viel|cu[aá]nto|quanto)\b/i;

/** The free check: the branch has a table, and the question has a figure word. */
export function mayAskFigure(question: string, tables: readonly AttachedTableRef[]): boolean {
  return tables.length > 0 && FIGURE_WORDS.test(question);
}

export const tableFigureStep = defineDecideStep({
  id: 'table_figure',
  system: TABLE_FIGURE_SYSTEM,
  questions: {
    asks_figure: { kind: 'boolean', instructions: 'does the message ask for a figure computed from the rows of the attached table?' },
  },
  maxTokens: 24,
});

export type QueriedFirst = { note: ChatMessage; forGate: string };

type Plan = { ok: true; attachmentId: string; sql: string } | { ok: false; diagnostic: string };

const planSchema = (ids: [string, ...string[]]) => z.object({ attachment_id: z.enum(ids), sql: z.string().min(1).max(2000) }).strict();

/** The tables as the plan's prompt lists them. */
const describe = (tables: readonly AttachedTableRef[]) =>
  tables
    .map((t) => `Attached file ${t.name} (attachment_id ${t.attachmentId}):\n${t.meta.tables.map((x) => describeTable(x)).join('\n')}`)
    .join('\n\n');

export async function queryFirst(
  io: TurnIO,
  question: string,
  context: ContextRuntime,
  tables: readonly AttachedTableRef[],
  toolDeps: ToolDeps,
): Promise<QueriedFirst | null> {
  io.emit({ type: 'status', stage: 'checking' });
  const shown = tables.slice(0, 3);
  const about = `${describe(shown)}\n\nThe message:\n${question}`;
  const record = await io.decide(tableFigureStep, about, context);
  if (!saidYes(record.answers.asks_figure)) return null;
  const ids = shown.map((t) => t.attachmentId) as [string, ...string[]];
  const { value: plan } = await io.steps.step<Plan>('table_plan', async () => {
    const result = await io.model.chat(
      {
        messages: [
          { role: 'system', content: `${TABLE_PLAN_SYSTEM}\n\n${describe(shown)}` },
          { role: 'user', content: question },
        ],
        jsonSchema: {
          type: 'object',
          properties: { attachment_id: { type: 'string', enum: ids }, sql: { type: 'string', maxLength: 2000 } },
          required: ['attachment_id', 'sql'],
          additionalProperties: false,
        },
        temperature: 0,
        maxTokens: 400,
      },
      { signal: io.signal },
    );
    const parsed = planSchema(ids).safeParse(parseAnswerJson(result.content));
    return parsed.success
      ? { ok: true, attachmentId: parsed.data.attachment_id, sql: parsed.data.sql.trim() }
      : { ok: false, diagnostic: `the query plan was not in the expected shape: ${JSON.stringify(result.content.slice(0, 200))}` };
  });
  if (!plan.ok) {
    io.diagnostics.push(`table query skipped: ${plan.diagnostic}`);
    return null;
  }
  const callId = 'hearth-query-1';
  const args = JSON.stringify({ attachment_id: plan.attachmentId, sql: plan.sql });
  const { value: ran } = await io.steps.step<
    { ok: true; result: Awaited<ReturnType<typeof runTableQuery>> } | { ok: false; error: string }
  >('table_query', async () => {
    try {
      return { ok: true, result: await runTableQuery(toolDeps, plan.attachmentId, plan.sql) };
    } catch (err) {
      if (isToolError(err)) return { ok: false, error: err.message };
      throw err;
    }
  });
  // Shown as a query_table call of its own, with its card, whether or not it ran.
  io.emit({ type: 'tool_call', id: callId, name: 'query_table', arguments: args });
  if (!ran.ok) {
    io.emit({ type: 'tool_result', id: callId, name: 'query_table', ok: false, error: ran.error, ms: 0 });
    io.diagnostics.push(`table query failed: ${ran.error}`);
    return null;
  }
  io.emit({ type: 'tool_result', id: callId, name: 'query_table', ok: true, result: ran.result, ms: 0 });
  const { columns, rows } = ran.result;
  const result =
    rows.length === 1 && columns.length === 1
      ? `${columns[0]} = ${String(rows[0][0])}`
      : [columns.join(' | '), ...rows.map((r) => r.map((v) => (v === null ? '' : String(v))).join(' | '))].join('\n');
  return {
    note: { role: 'user', content: tableResultNote(result, plan.sql, ran.result.file) },
    forGate: `query_table ${plan.sql} over ${ran.result.file}: ${result.slice(0, 500)}`,
  };
}
