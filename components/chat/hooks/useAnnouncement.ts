'use client';

import { useEffect, useState } from 'react';
import type { LiveTurnState } from '@/lib/contract/turn-state';
import { markdownToPlain } from '@/lib/shared/markdown/plain';

/**
 * What a screen reader hears, politely (never each streamed word): that a reply is being
 * written, then the finished answer as the page shows it (its words, not its Markdown), or how
 * the turn ended. Kept after the turn's live state
 * is cleared, until the next turn says something.
 */
export function useAnnouncement(live: LiveTurnState | null, assistantName = 'Hearth'): string {
  const says = !live
    ? null
    : !live.ended
      ? `${assistantName} is writing a reply.`
      : live.error
        ? `The reply ended: ${live.error.message}`
        : `${assistantName} replied: ${markdownToPlain(live.final ?? live.draft)
            .trim()
            .slice(0, 600)}`;
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (says) setAnnouncement(says);
  }, [says]);
  return announcement;
}
