import type { DecisionRecord } from '@/lib/contract/decisions';
import type { ToolCallView } from '@/lib/contract/responses';
import { describeDecision, percent } from '@/lib/shared/words/decisions';
import { toolDoing } from '@/lib/shared/words/tools';
import { escapeHtml } from '@/lib/shared/markdown/html';

/**
 * What the exports (Markdown, web page) say in the page's own words rather than Hearth's
 * internals: times in the user's timezone, named; a tool call as what it did; the checks as
 * sentences; a computed table as its card. Kept apart from the exports' layout.
 */

/** A time as "2026-12-04 18:40 (Europe/Paris)": the reader sees the zone it is in. */
export function exportTime(ms: number, timezone: string): string {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(ms);
  } catch {
    return exportTime(ms, 'UTC');
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} (${timezone})`;
}

/** A tool call as the page says it: "Searched the web for “…”", or that it failed. */
export function toolInWords(call: Pick<ToolCallView, 'name' | 'arguments' | 'ok' | 'repeat'>): string {
  const said = call.ok ? toolDoing(call, true) : `${toolDoing(call)}: failed`;
  return call.repeat ? `${said} (again: the earlier result was used)` : said;
}

/** The checks a thread went through, newest of each, as the page's Checks say them; the classifier's are Hearth's own and left out. */
export function checksInWords(records: readonly DecisionRecord[]): string[] {
  const latest = new Map<string, DecisionRecord>();
  for (const r of records.filter((r) => r.source !== 'classifier')) {
    latest.delete(r.stepId);
    latest.set(r.stepId, r);
  }
  return [...latest.values()]
    .map((r) =>
      describeDecision(r)
        .map((line) => `${line.label}: ${line.text}${line.p !== undefined ? `, ${percent(line.p)}` : ''}`)
        .join('; '),
    )
    .filter((line) => line !== '');
}

/** Rows a computed table shows, as on the page. */
const SHOWN_ROWS = 12;

/** A query_table result as the page's card shows it: what it was computed from, the query, the rows. */
export function queryCardHtml(result: unknown): string {
  const r = (result ?? {}) as { file?: unknown; sql?: unknown; columns?: unknown; rows?: unknown; total_rows?: unknown };
  const columns = Array.isArray(r.columns) ? r.columns.map(String) : [];
  const rows = Array.isArray(r.rows) ? (r.rows as unknown[]).filter(Array.isArray) : [];
  const total = typeof r.total_rows === 'number' ? r.total_rows : rows.length;
  const shown = rows.slice(0, SHOWN_ROWS);
  const cell = (v: unknown) =>
    v === null || v === undefined ? '' : typeof v === 'number' ? v.toLocaleString('en', { maximumFractionDigits: 10 }) : String(v);
  const head = columns.map((c) => `<th>${escapeHtml(c)}</th>`).join('');
  const body = shown
    .map((row) => `<tr>${row.map((v) => `<td${typeof v === 'number' ? ' class="num"' : ''}>${escapeHtml(cell(v))}</td>`).join('')}</tr>`)
    .join('');
  return [
    '<div class="figure">',
    `<div class="figure-head">Computed by Hearth${typeof r.file === 'string' ? ` from ${escapeHtml(r.file)}` : ''}</div>`,
    `<pre>${escapeHtml(typeof r.sql === 'string' ? r.sql : '')}</pre>`,
    `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`,
    total > shown.length ? `<div class="figure-head">${shown.length} of ${total.toLocaleString('en')} rows shown</div>` : '',
    '</div>',
  ].join('');
}
