'use client';

import type { LiveToolCall } from '@/lib/contract/turn-state';

/** A query_table result as Hearth computed it: the query, the rows (the first ones, with how many in all), and who computed it. */
export function QueryCard({ call }: { call: LiveToolCall }) {
  const r = (call.result ?? {}) as { file?: unknown; sql?: unknown; columns?: unknown; rows?: unknown; total_rows?: unknown };
  const columns = Array.isArray(r.columns) ? r.columns.map(String) : [];
  const rows = Array.isArray(r.rows) ? (r.rows as unknown[][]).filter(Array.isArray) : [];
  const total = typeof r.total_rows === 'number' ? r.total_rows : rows.length;
  const shown = rows.slice(0, 12);
  const cell = (v: unknown) =>
    v === null || v === undefined ? '' : typeof v === 'number' ? v.toLocaleString('en', { maximumFractionDigits: 10 }) : String(v);
  return (
    <div
      data-testid="query-card"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <div className="text-xs uppercase tracking-wide text-amber-800 dark:text-amber-300">
        Computed by Hearth{typeof r.file === 'string' ? ` from ${r.file}` : ''}
      </div>
      <pre data-testid="query-sql" className="mt-1 whitespace-pre-wrap break-all font-mono text-xs">
        {typeof r.sql === 'string' ? r.sql : ''}
      </pre>
      <div className="mt-1 overflow-x-auto">
        <table data-testid="query-rows" className="text-xs">
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={i} className="pr-3 text-left font-medium">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i}>
                {row.map((v, j) => (
                  <td key={j} className={`pr-3 ${typeof v === 'number' ? 'text-right font-mono' : ''}`}>
                    {cell(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > shown.length && (
        <div className="mt-1 text-xs text-amber-800 dark:text-amber-300">
          {shown.length} of {total.toLocaleString('en')} rows shown
        </div>
      )}
    </div>
  );
}
