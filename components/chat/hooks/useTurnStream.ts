'use client';

import { useCallback, useRef, useState, type RefObject } from 'react';
import { api, ApiError, followTurn } from '@/lib/client/api';
import type { StreamedEvent } from '@/lib/contract/responses';
import { applyEvent, newTurnState, type LiveTurnState } from '@/lib/contract/turn-state';

/** Re-attach attempts when the event stream drops before the turn ended. */
const REATTACH_TRIES = 5;

/** Opens a turn's event stream (a new message, a regeneration, or following a running turn). */
export type TurnRequest = (onEvent: (e: StreamedEvent) => void, signal: AbortSignal) => Promise<void>;

/**
 * The running turn of the thread shown, as the browser sees it: its events applied in order
 * (lib/contract/turn-state.ts), re-attached with ?after=N when the stream drops, stopped on
 * request (even before the server has named it). When it ends, `onEnded` loads what was stored;
 * the live state then gives way to it.
 */
export function useTurnStream({
  currentRef,
  onEnded,
  onError,
}: {
  /** The thread shown now: events of a thread left behind are not applied. */
  currentRef: RefObject<string | null>;
  onEnded: (threadId: string, final: LiveTurnState | null) => Promise<void>;
  onError: (message: string) => void;
}) {
  const [live, setLive] = useState<LiveTurnState | null>(null);
  /** The question sent, shown until the stored thread has it. */
  const [pendingUser, setPendingUser] = useState<string | null>(null);
  const followAbort = useRef<AbortController | null>(null);
  /** Stop pressed before the turn had an id (it is cancelled as soon as it has one). */
  const stopAsked = useRef(false);

  /** Streams a turn's events into the live state, re-attaching if the stream drops. */
  const run = useCallback(
    async (threadId: string, start: TurnRequest, turnId: string | null) => {
      followAbort.current?.abort();
      const abort = new AbortController();
      followAbort.current = abort;
      let state: LiveTurnState | null = turnId ? newTurnState(turnId) : null;
      const onEvent = (e: StreamedEvent) => {
        if (currentRef.current !== threadId) return;
        if (!state) state = newTurnState(e.type === 'turn' ? e.turnId : 'unknown');
        state = applyEvent(state, e);
        setLive(state);
        // Stop was pressed before the server had named the turn: stop it now.
        if (e.type === 'turn' && stopAsked.current) {
          stopAsked.current = false;
          void api.cancel(threadId, e.turnId).catch(() => undefined);
        }
      };
      try {
        await start(onEvent, abort.signal);
        for (let i = 0; i < REATTACH_TRIES && state && !state.ended && !abort.signal.aborted; i++) {
          const s: LiveTurnState = state;
          await followTurn(threadId, s.turnId, s.lastSeq, onEvent, abort.signal).catch(() => undefined);
        }
      } catch (err) {
        if (abort.signal.aborted) return;
        if (err instanceof ApiError) onError(err.message);
        else onError('The connection to Hearth was lost. Reload to see where the reply got to.');
        return;
      }
      if (abort.signal.aborted || currentRef.current !== threadId) return;
      await onEnded(threadId, state);
      setLive(null);
      setPendingUser(null);
    },
    [currentRef, onEnded, onError],
  );

  /** Starts a turn by `request` and streams it; false when the server refused it (nothing was stored). */
  const start = useCallback(
    async (threadId: string, request: TurnRequest): Promise<boolean> => {
      stopAsked.current = false;
      setLive(newTurnState('pending'));
      let accepted = true;
      await run(
        threadId,
        async (onEvent, signal) => {
          try {
            await request(onEvent, signal);
          } catch (err) {
            accepted = false;
            throw err;
          }
        },
        null,
      );
      if (!accepted) setLive(null);
      return accepted;
    },
    [run],
  );

  /** Re-attaches to a turn still running (the page was reloaded): its events from the start, then live. */
  const follow = useCallback(
    (threadId: string, turnId: string) => void run(threadId, (onEvent, signal) => followTurn(threadId, turnId, 0, onEvent, signal), turnId),
    [run],
  );

  const stop = (threadId: string) => {
    if (!live) return;
    if (live.turnId === 'pending' || live.turnId === 'unknown') stopAsked.current = true;
    else void api.cancel(threadId, live.turnId).catch((e) => onError((e as Error).message));
  };

  /** Leaves the turn shown (another thread is opened): its stream is dropped, the turn runs on. */
  const leave = useCallback(() => {
    followAbort.current?.abort();
    setLive(null);
    setPendingUser(null);
  }, []);

  return { live, pendingUser, setPendingUser, start, follow, stop, leave, running: Boolean(live && !live.ended) };
}
