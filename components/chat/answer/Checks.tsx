'use client';

import type { DecisionRecord } from '@/lib/contract/decisions';
import { describeDecision, percent } from '@/lib/shared/words/decisions';

/** What the Checks are, where the page shows them. */
const CHECKS_HELP =
  'Before an answer is shown, Hearth asks the model short questions about it (does it need current information? does it answer the question?) and keeps the answers with their probabilities.';

/** The checks a reply went through, as sentences with a small bar for their probability. */
export function Decisions({ records }: { records: DecisionRecord[] }) {
  if (records.length === 0) return null;
  return (
    <details data-testid="decisions" className="text-xs text-stone-600 dark:text-stone-400">
      <summary className="cursor-pointer select-none" title={CHECKS_HELP} data-testid="decisions-summary">
        Checks ({records.length})
      </summary>
      <ul className="mt-1 space-y-0.5">
        {records.map((r, i) => (
          <li key={`${r.stepId}-${r.at}-${i}`} data-testid="decision" data-step={r.stepId} className="flex flex-wrap gap-x-3">
            {describeDecision(r).map((line) => (
              <span key={line.label} className="inline-flex items-center gap-1">
                <span>
                  {line.label}: <strong className="font-medium">{line.text}</strong>
                  {line.p !== undefined ? `, ${percent(line.p)}` : ''}
                </span>
                {line.p !== undefined && (
                  <meter
                    min={0}
                    max={1}
                    value={line.p}
                    className="h-1.5 w-10"
                    aria-label={`${line.label}: ${line.text}, ${percent(line.p)} sure`}
                  />
                )}
              </span>
            ))}
            {r.source === 'estimated' && <span className="opacity-70">(estimated)</span>}
            {r.source === 'program' && (
              <span className="opacity-70" title="Decided by a rule in Hearth's own code, with no model call">
                (Hearth’s rule)
              </span>
            )}
            {r.source === 'classifier' && (
              <span className="opacity-70" title={`Scored by Hearth's own classifier (${r.modelId}), in the server, with no model call`}>
                (scored by Hearth, no model call)
              </span>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
