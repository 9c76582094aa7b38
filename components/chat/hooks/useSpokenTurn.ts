'use client';

import { useCallback, useEffect, useRef } from 'react';
import type { Following } from '@/lib/client/speaker';
import type { LiveTurnState } from '@/lib/contract/turn-state';

type Spoken = { turnId: string; id: string; following: Following; setAside: number; tokened: boolean };

/**
 * The running answer spoken as it streams (Settings → Voice → Read answers aloud, or conversation
 * mode): each sentence as soon as it is complete. A draft the gate sets aside stops at once and is
 * not said further; the next draft is followed afresh, and the accepted answer is said to its
 * end once the turn has ended (`ended`, from the turn's end with its final state).
 */
export function useSpokenTurn({
  live,
  enabled,
  follow,
  onFirstToken,
  onFirstSound,
  onOver,
}: {
  live: LiveTurnState | null;
  enabled: boolean;
  follow: (id: string, onFirstSound?: () => void) => Following;
  onFirstToken?: () => void;
  onFirstSound?: (messageId: string) => void;
  /** The answer is said (or there was nothing to say): `messageId` is its message, when there was one. */
  onOver?: (messageId?: string) => void;
}) {
  const spoken = useRef<Spoken | null>(null);
  const hooks = useRef({ onFirstToken, onFirstSound, onOver });
  hooks.current = { onFirstToken, onFirstSound, onOver };

  useEffect(() => {
    if (!enabled || !live || live.ended) return;
    let s = spoken.current;
    const followAs = (id: string) => follow(id, () => hooks.current.onFirstSound?.(id));
    if (!s || s.turnId !== live.turnId) {
      const id = live.assistantMessageId ?? live.turnId;
      s = spoken.current = { turnId: live.turnId, id, following: followAs(id), setAside: live.setAside.length, tokened: false };
    }
    if (!s.tokened && live.draft) {
      s.tokened = true;
      hooks.current.onFirstToken?.();
    }
    if (live.setAside.length > s.setAside) {
      // The gate set the draft aside: not a word more of it.
      s.setAside = live.setAside.length;
      s.following.cancel();
      s.following = followAs(s.id);
    }
    s.following.update(live.draft);
  }, [live, enabled, follow]);

  /** The turn ended: the accepted answer is said to its end; a failed or stopped one stops. */
  const ended = useCallback((final: LiveTurnState | null) => {
    const s = spoken.current;
    spoken.current = null;
    // Not followed (not spoken, or dropped when the person cut in): nothing to finish.
    if (!s) return;
    if (final && final.turnId === s.turnId && final.final && !final.error)
      void s.following.finish(final.final).then(() => hooks.current.onOver?.(s.id));
    else {
      s.following.cancel();
      hooks.current.onOver?.(s.id);
    }
  }, []);
  /** The person cut in: the answer being said is dropped, and its end, when it comes, starts nothing. */
  const drop = useCallback(() => {
    spoken.current?.following.cancel();
    spoken.current = null;
  }, []);
  return { ended, drop };
}
