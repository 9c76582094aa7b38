'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/lib/client/api';

/** How long a deleted thread can be brought back. */
const UNDO_MS = 8000;

/**
 * A thread deleted from the sidebar goes out of sight at once but is deleted on the server
 * only after UNDO_MS (or "Delete now", or when the page goes away): until then Undo brings it back.
 */
export function useDeferredDelete({ onDeleted, onError }: { onDeleted: () => void; onError: (message: string) => void }) {
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const commit = useCallback(
    (id: string) => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      setDeleting((d) => (d?.id === id ? null : d));
      void api
        .deleteThread(id)
        .then(() => onDeleted())
        .catch((e) => onError((e as Error).message));
    },
    [onDeleted, onError],
  );

  /** Starts the countdown for one thread; one already counting down is deleted now. */
  const remove = (id: string, title: string) => {
    if (deleting) commit(deleting.id);
    setDeleting({ id, title });
    timer.current = setTimeout(() => commit(id), UNDO_MS);
  };

  const undo = () => {
    if (timer.current) clearTimeout(timer.current);
    setDeleting(null);
  };

  // Leaving the page does not undo a delete: it is sent on the way out.
  useEffect(() => {
    if (!deleting) return;
    const onHide = () => void fetch(`/api/threads/${encodeURIComponent(deleting.id)}`, { method: 'DELETE', keepalive: true });
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [deleting]);

  return { deleting, remove, undo, commit };
}
