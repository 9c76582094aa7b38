'use client';

import { useEffect, useRef } from 'react';

export type ChangeFeedHandlers = {
  /** Facts changed (remembered in a chat, here or in another tab). */
  memories: () => void;
  /** Anything may have changed (an import): load threads and facts afresh. */
  library: () => void;
  /** A title written in the background. */
  title: (id: string, title: string) => void;
};

/**
 * Changes made outside this page's own turn, from GET /api/events. EventSource reconnects by
 * itself; on (re)connecting the page loads everything afresh, since nothing is replayed.
 */
export function useChangeFeed(handlers: ChangeFeedHandlers) {
  // The latest handlers, so the one connection outlives the renders.
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const source = new EventSource('/api/events');
    source.onopen = () => latest.current.library();
    source.onmessage = (message) => {
      let update: { type?: string; id?: string; title?: string };
      try {
        update = JSON.parse(message.data);
      } catch {
        return;
      }
      if (update.type === 'memories') latest.current.memories();
      if (update.type === 'library') latest.current.library();
      if (update.type === 'thread' && typeof update.id === 'string' && typeof update.title === 'string') {
        latest.current.title(update.id, update.title);
      }
    };
    return () => source.close();
  }, []);
}
