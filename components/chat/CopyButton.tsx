'use client';

import { useState } from 'react';
import { copyText } from './copy';

/** A small "Copy" button that says "Copied" for a moment after it worked. */
export function CopyButton({ text, label, testId, className = '' }: { text: string; label: string; testId: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      data-testid={testId}
      aria-label={label}
      onClick={() =>
        void copyText(text).then((ok) => {
          setState(ok ? 'copied' : 'failed');
          setTimeout(() => setState('idle'), 1500);
        })
      }
      className={`rounded px-2 py-0.5 text-xs text-stone-600 hover:bg-stone-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:text-stone-300 dark:hover:bg-stone-800 ${className}`}
    >
      <span aria-live="polite">{state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
