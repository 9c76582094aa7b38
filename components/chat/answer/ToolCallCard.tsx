'use client';

import type { LiveToolCall } from '@/lib/contract/turn-state';
import { resultPreview } from '@/lib/client/turn-text';
import { toolDoing } from '@/lib/shared/words/tools';
import { memoryChange } from '@/lib/client/answer-words';

/**
 * One tool call as a card, collapsed: what it did in words, a one-line result, ok or failed,
 * its time, or "answered from the ledger" for a repeat; opened: the arguments and the result.
 */
export function ToolCallCard({ call }: { call: LiveToolCall }) {
  const change = memoryChange(call);
  const pending = call.ok === undefined;
  const tone = pending
    ? 'border-stone-300 text-stone-700 dark:border-stone-700 dark:text-stone-300'
    : call.ok
      ? 'border-emerald-300 text-emerald-900 dark:border-emerald-800 dark:text-emerald-200'
      : 'border-red-300 text-red-800 dark:border-red-900 dark:text-red-200';
  const outcome = pending ? 'running…' : call.repeat ? 'answered from the ledger' : call.ok ? `✓ ${call.ms ?? 0} ms` : '✗ failed';
  let args = call.arguments;
  try {
    args = JSON.stringify(JSON.parse(call.arguments), null, 2);
  } catch {
    // shown as the model wrote it
  }
  return (
    <details
      data-testid="tool-call"
      data-tool={call.name}
      data-ok={pending ? undefined : String(call.ok)}
      className={`rounded-md border px-2 py-1 text-xs ${tone}`}
    >
      <summary className="flex cursor-pointer list-none items-center gap-2">
        <span aria-hidden="true">▸</span>
        <span className="font-mono font-semibold">{call.name}</span>
        <span
          className={`min-w-0 flex-1 ${change ? 'break-words' : 'truncate'}`}
          data-testid={change ? 'memory-change' : 'tool-call-doing'}
        >
          {change ?? toolDoing(call, !pending)}
        </span>
        <span className="shrink-0" data-testid="tool-call-outcome">
          {outcome}
        </span>
      </summary>
      <div className="mt-1 space-y-1">
        {!change && (
          <p data-testid="tool-call-preview" className="break-words">
            {resultPreview(call)}
          </p>
        )}
        <div className="text-[11px] font-medium">Arguments</div>
        <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-stone-100 p-1 text-[11px] text-stone-900 dark:bg-stone-900 dark:text-stone-100">
          {args}
        </pre>
        {!pending && (
          <>
            <div className="text-[11px] font-medium">{call.ok ? 'Result' : 'Error'}</div>
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-stone-100 p-1 text-[11px] text-stone-900 dark:bg-stone-900 dark:text-stone-100">
              {call.ok ? JSON.stringify(call.result, null, 2) : call.error}
            </pre>
          </>
        )}
      </div>
    </details>
  );
}
