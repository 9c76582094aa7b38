'use client';

import { thinkingLabel } from '@/lib/client/turn-text';
import type { AssistantProps } from './types';

/**
 * The model's thinking before a reply or a tool call: open while it streams, folded once the
 * answer begins (and after a reload), with how long it took and its tokens. Not the answer: the
 * Copy button never takes it, and it is shown as plain text, never as Markdown.
 */
export function Thinking({ block }: { block: NonNullable<AssistantProps['thinking']>[number] }) {
  const done = block.done !== false;
  return (
    <details
      data-testid="thinking"
      data-done={String(done)}
      open={!done}
      className="rounded-md border-l-2 border-stone-300 bg-stone-50 px-3 py-1 text-sm text-stone-600 dark:border-stone-700 dark:bg-stone-900/60 dark:text-stone-400"
    >
      <summary data-testid="thinking-label" className={`cursor-pointer select-none text-xs font-medium ${done ? '' : 'animate-pulse'}`}>
        {thinkingLabel({ ...block, done })}
      </summary>
      <div data-testid="thinking-text" className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words text-xs leading-relaxed">
        {block.text.trim()}
      </div>
    </details>
  );
}
