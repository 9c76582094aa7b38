import fs from 'node:fs';
import path from 'node:path';
import { boundedQueue } from '@/lib/shared/bounded-queue';
import { runJob } from '@/lib/data/jobs/job';

/**
 * Attached tables: a CSV or TSV, or a spreadsheet's sheets (XLSX, ODS), read once into a
 * SQLite file of their own beside the attachment, and queried read-only by query_table. Both
 * run in a process of their own (table-worker.mjs), never on the thread that answers requests:
 * a 200 MB CSV takes seconds to read, and a query is model output (a recursive CTE that never
 * ends, a join of everything with everything), so each is bounded by a deadline that kills the
 * process, and by the process's own heap.
 */

export type TableColumn = {
  name: string;
  /** decimal: a number with places, summed and averaged exactly; date: an ISO date (YYYY-MM-DD). */
  type: 'integer' | 'decimal' | 'date' | 'text';
  places?: number;
};
export type TableInfo = { name: string; rows: number; columns: TableColumn[]; sample: unknown[][] };
/** What a table file holds: its tables (a sheet each; a CSV's is `data`), and how a CSV was read. */
export type TableMeta = {
  tables: TableInfo[];
  encoding?: string;
  delimiter?: string;
  header?: boolean;
  /** The reader's peak resident memory while it read the file, in MB. */
  peakMb?: number;
};
/** A table attached in a thread, as a turn knows it: the attachment, its name, what it holds. */
export type AttachedTableRef = { attachmentId: string; name: string; meta: TableMeta };
/** `cut`: cells cut to their first characters, and the byte cap when rows were left out to stay under it (0: none). */
export type QueryResult = { columns: string[]; rows: unknown[][]; total: number; cut: { cells: number; bytes: number } };

export type TableLimits = {
  /** How long reading one file into its table may take. */
  buildMs: number;
  /** How long one query may run. */
  queryMs: number;
  /** The reader's JavaScript heap. */
  memoryMb: number;
};
export const TABLE_LIMITS: TableLimits = { buildMs: 300_000, queryMs: 10_000, memoryMb: 512 };

/** The file is a table Hearth reads: a CSV or TSV by its name or type, a spreadsheet by its name or type. */
export function tableFormat(name: string, mime: string): 'csv' | 'xlsx' | 'ods' | null {
  const lower = name.toLowerCase();
  if (/\.(csv|tsv|tab)$/.test(lower) || /^text\/(csv|tab-separated-values)\b/i.test(mime)) return 'csv';
  if (lower.endsWith('.xlsx') || mime === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') return 'xlsx';
  if (lower.endsWith('.ods') || mime === 'application/vnd.oasis.opendocument.spreadsheet') return 'ods';
  return null;
}

/** Found from the working directory, as the migrations are; joined at run time so the bundler leaves the script alone. */
const WORKER = [process.cwd(), 'lib', 'data', 'tables', 'table-worker.mjs'].join(path.sep);
const building = boundedQueue(2);
const querying = boundedQueue(4);

type Reply = ({ ok: true } & Record<string, unknown>) | { ok: false; error: string };

/** One job in the reader's process; rejects with the reason, worded for the one who asked. */
async function run<T>(message: Record<string, unknown>, limits: { ms: number; memoryMb: number }, late: string): Promise<T> {
  const end = await runJob<Reply>(WORKER, message, { memoryMb: limits.memoryMb, timeMs: limits.ms });
  switch (end.kind) {
    case 'answered':
      if (end.reply.ok) return end.reply as T;
      throw new Error(end.reply.error);
    case 'late':
    case 'stopped':
      throw new Error(late);
    case 'failed':
      throw new Error(end.message);
    case 'exited':
      throw new Error(end.outOfMemory ? `it needs more than ${limits.memoryMb} MB of memory` : `its reader stopped (${end.how})`);
  }
}

/**
 * Reads a file into a new table file (`db`); a spreadsheet's text (tab-separated, a heading a
 * sheet) goes to `textOut`. Throws an Error whose message says why the file is not a table.
 */
export function buildTable(args: {
  source: string;
  format: 'csv' | 'xlsx' | 'ods';
  name: string;
  db: string;
  textOut?: string;
  limits?: TableLimits;
}): Promise<TableMeta> {
  const limits = args.limits ?? TABLE_LIMITS;
  return building(async () => {
    fs.rmSync(args.db, { force: true });
    try {
      const { tables, encoding, delimiter, header, peakMb } = await run<TableMeta>(
        { op: 'build', kind: args.format, path: args.source, name: args.name, out: args.db, textOut: args.textOut },
        { ms: limits.buildMs, memoryMb: limits.memoryMb },
        `reading it took longer than ${limits.buildMs / 1000} s`,
      );
      return { tables, encoding, delimiter, header, peakMb };
    } catch (err) {
      fs.rmSync(args.db, { force: true });
      throw err;
    }
  });
}

/** Runs one read-only query; throws an Error whose message is advice for the model (what is allowed, what failed). */
export function queryTable(args: { db: string; sql: string; maxRows: number; limits?: TableLimits }): Promise<QueryResult> {
  const limits = args.limits ?? TABLE_LIMITS;
  return querying(() =>
    run<QueryResult>(
      { op: 'query', db: args.db, sql: args.sql, maxRows: args.maxRows },
      { ms: limits.queryMs, memoryMb: limits.memoryMb },
      `the query ran longer than ${limits.queryMs / 1000} s and was stopped (a recursive query that never ends, or a join of everything with everything?); write a simpler one`,
    ).then(({ columns, rows, total, cut }) => ({ columns, rows, total, cut })),
  );
}

/** A table's description for the model: its name, rows, columns with their types, and its first rows. */
export function describeTable(t: TableInfo, sampleRows = 3): string {
  const columns = t.columns
    .map(
      (c) =>
        `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.name) ? c.name : `"${c.name.replace(/"/g, '""')}"`} (${c.type === 'decimal' ? `decimal, ${c.places} place${c.places === 1 ? '' : 's'}` : c.type})`,
    )
    .join(', ');
  const rows = t.sample
    .slice(0, sampleRows)
    .map((r) => `  ${r.map((v) => (v === null ? '' : String(v))).join(' | ')}`)
    .join('\n');
  return `table ${t.name}: ${t.rows.toLocaleString('en')} row${t.rows === 1 ? '' : 's'}; columns ${columns}${rows ? `\n  first rows:\n${rows}` : ''}`;
}
