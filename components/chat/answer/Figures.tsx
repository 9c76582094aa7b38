'use client';

import type { TurnStats } from '@/lib/contract/events';
import { duration, speed } from '@/lib/client/turn-text';
import { toolLabel } from '@/lib/shared/words/tools';

/** What "fuel" means, where the page says it. */
const FUEL_HELP =
  'Fuel is what this reply spent of its budget: a model call costs 100, a tool run 1 to 5. A reply that runs out stops and says so (Settings → Turn budget).';

/** Under an answer, what it took: time to the first word, speed, model calls, tools, fuel; a compiled answer says so. */
export function Figures({ stats, tools }: { stats: TurnStats; tools: string[] }) {
  const parts: string[] = [];
  if (stats.firstThinkingMs !== undefined) parts.push(`thinking after ${duration(stats.firstThinkingMs)}`);
  if (stats.thinkingTokens) parts.push(`thought ${duration(stats.thinkingMs ?? 0)} (${stats.thinkingTokens.toLocaleString('en')} tokens)`);
  if (stats.firstTokenMs !== undefined) parts.push(`first word after ${duration(stats.firstTokenMs)}`);
  if (stats.tokensPerSecond !== undefined) parts.push(speed(stats.tokensPerSecond));
  parts.push(`${stats.modelCalls} model call${stats.modelCalls === 1 ? '' : 's'}`);
  if (tools.length) parts.push(`tools: ${[...new Set(tools.map(toolLabel))].join(', ')}`);
  const fuelAt = parts.push(`fuel ${stats.fuelUsed}`) - 1;
  parts.push(`${(stats.ms / 1000).toFixed(1)} s in all`);
  return (
    <div data-testid="answer-figures" className="text-xs text-stone-600 dark:text-stone-400">
      {stats.compiled && (
        <span
          data-testid="compiled-note"
          className="mr-2 rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200"
          title="The model wrote no answer; Hearth put this one together from what the tools found."
        >
          compiled by Hearth from the tool results
        </span>
      )}
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 && ' · '}
          {i === fuelAt ? (
            <abbr data-testid="answer-fuel" title={FUEL_HELP} className="cursor-help no-underline">
              {part}
            </abbr>
          ) : (
            part
          )}
        </span>
      ))}
    </div>
  );
}
