'use client';

import type { UsageLine } from '@/lib/contract/responses';

const number = new Intl.NumberFormat();

/** Newest day first, then by person and model (each line is one person's day with one model already). */
const ordered = (lines: UsageLine[]) =>
  [...lines].sort((a, b) => b.day.localeCompare(a.day) || a.username.localeCompare(b.username) || a.model.localeCompare(b.model));

/**
 * What turns used of the model servers: turns, prompt and generated tokens and time on the
 * server, by day and model (and by person on the People page), with the CSV of the same.
 */
export function UsageTable({ lines, people = false, csv }: { lines: UsageLine[]; people?: boolean; csv: string }) {
  const rows = ordered(lines);
  const cell = 'px-2 py-1 text-right tabular-nums';
  return (
    <div className="space-y-2">
      {rows.length === 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="usage-empty">
          No turns in these 30 days.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-sm" data-testid="usage">
            <thead className="text-xs text-stone-600 dark:text-stone-400">
              <tr>
                {people && <th className="px-2 py-1 text-left font-medium">Person</th>}
                <th className="px-2 py-1 text-left font-medium">Day</th>
                <th className="px-2 py-1 text-left font-medium">Model</th>
                <th className={`${cell} font-medium`}>Turns</th>
                <th className={`${cell} font-medium`}>Prompt tokens</th>
                <th className={`${cell} font-medium`}>Generated</th>
                <th className={`${cell} font-medium`}>On the server</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
              {rows.map((r) => (
                <tr key={`${r.username} ${r.day} ${r.model}`} data-testid="usage-row" data-username={r.username}>
                  {people && <td className="px-2 py-1">{r.username}</td>}
                  <td className="px-2 py-1 whitespace-nowrap">{r.day}</td>
                  <td className="px-2 py-1 break-all">{r.model || '(no answer)'}</td>
                  <td className={cell}>{number.format(r.turns)}</td>
                  <td className={cell}>{number.format(r.promptTokens)}</td>
                  <td className={cell}>{number.format(r.generatedTokens)}</td>
                  <td className={cell}>{(r.modelMs / 1000).toFixed(1)} s</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <a href={csv} download className="text-sm underline" data-testid="usage-csv">
        Download as CSV
      </a>
    </div>
  );
}
