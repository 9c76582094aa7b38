import { z } from 'zod';
import { queryTable, TABLE_LIMITS, type TableMeta } from '@/lib/data/tables/tables';
import { defineTool, ToolError, type ToolDeps } from './types';

/**
 * query_table: exact answers over an attached table. The model writes one SQLite SELECT; the
 * program runs it over the file's own read-only copy (lib/data/tables), with sums and averages of
 * decimal columns in decimal, and gives back the rows (at most QUERY_MAX_ROWS, with the total
 * count) and the query, so the answer can say how it was computed.
 */

/** Rows a result carries to the model and the page; the count covers them all. */
export const QUERY_MAX_ROWS = 50;

/** A table file as query_table needs it: the attachment's name, its SQLite file and what it holds (null: the file is no table). */
export type AttachedTable = { name: string; db: string; meta: TableMeta; queryMs: number } | { name: string; db: null; meta: null };

/** What the size caps left out, said to the model with what to do instead. */
function cutInWords({ cells, bytes }: { cells: number; bytes: number }): string {
  const parts = [
    ...(cells ? [`${cells} cell${cells === 1 ? ' was' : 's were'} longer than 2,000 characters and cut`] : []),
    ...(bytes ? [`rows past ${bytes / 1024} KB of results were left out (every row is still counted in total_rows)`] : []),
  ];
  return `${parts.join('; ')}: select fewer or shorter columns, or aggregate (count, sum, avg) instead of listing values`;
}

export async function runTableQuery(deps: ToolDeps, attachmentId: string, sql: string) {
  const table = await deps.attachmentTable?.(attachmentId);
  if (!table)
    throw new ToolError(`there is no file with the id ${attachmentId} in this conversation; use the id shown with an attached table`);
  if (!table.db) throw new ToolError(`${table.name} is not a table Hearth could read; read it with read_attachment instead`);
  try {
    const result = await queryTable({ db: table.db, sql, maxRows: QUERY_MAX_ROWS, limits: { ...TABLE_LIMITS, queryMs: table.queryMs } });
    return {
      file: table.name,
      sql,
      columns: result.columns,
      rows: result.rows,
      total_rows: result.total,
      ...(result.total > result.rows.length ? { shown: `the first ${result.rows.length} of ${result.total} rows` } : {}),
      ...(result.cut.cells || result.cut.bytes ? { cut: cutInWords(result.cut) } : {}),
      computed_by: 'Hearth (SQLite; sums and averages of decimal columns exact)',
    };
  } catch (err) {
    throw new ToolError(
      `${(err as Error).message}. The tables: ${table.meta.tables.map((t) => `${t.name} (${t.columns.map((c) => c.name).join(', ')})`).join('; ')}`,
    );
  }
}

export const queryTableTool = defineTool({
  name: 'query_table',
  description:
    'Compute exact figures over a table the user attached (CSV, TSV, Excel, OpenDocument): one SQLite SELECT over its rows. ' +
    'A CSV is the table `data`; a spreadsheet has a table per sheet, named as the sheet (the first is also `data`). ' +
    'Columns are named as in the header (quote names with spaces or capitals in double quotes); dates are YYYY-MM-DD text. ' +
    'Use it for every total, count, average, largest or smallest value: Hearth computes it exactly (money to the cent). Read-only.',
  params: z.object({
    attachment_id: z.string().uuid().describe('the id shown with the attached table'),
    sql: z.string().min(1).max(4000).describe("one SQLite SELECT, e.g. SELECT sum(amount) FROM data WHERE category = 'groceries'"),
  }),
  cost: 2,
  timeoutMs: 20_000,
  run: ({ attachment_id, sql }, deps) => runTableQuery(deps, attachment_id, sql),
});
