'use client';

import { useEffect, useState } from 'react';
import { stageLine } from '@/lib/client/turn-text';
import type { AssistantProps } from './types';

/** The stage line, counting the seconds while a cold model loads. */
export function StageLine(
  p: Pick<AssistantProps, 'stage' | 'toolCalls' | 'queuePosition' | 'thinking' | 'loading'> & { writing: boolean },
) {
  const [now, setNow] = useState(() => Date.now());
  const counting = p.stage === 'loading' && p.loading !== undefined;
  useEffect(() => {
    if (!counting) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [counting]);
  return (
    <div data-testid="turn-status" className="animate-pulse text-xs text-stone-600 dark:text-stone-400">
      {stageLine(
        p.stage,
        p.toolCalls,
        p.queuePosition,
        p.thinking?.map((b) => ({ ...b, done: b.done !== false })),
        p.loading && { ...p.loading, now },
        p.writing,
      )}
    </div>
  );
}
