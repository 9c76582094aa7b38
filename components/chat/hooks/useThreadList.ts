'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { api, type ThreadListView } from '@/lib/client/api';
import type { FolderView, ThreadSummary } from '@/lib/contract/responses';

/** Threads fetched per page of the sidebar (more come as its end scrolls into view). */
const THREAD_PAGE = 50;

/** The sidebar's thread list: loaded a page at a time, refreshed without shrinking what is shown; all, a folder, or the archive. */
export function useThreadList(onError: (message: string) => void) {
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [view, setView] = useState<ThreadListView>({ kind: 'all' });
  const [folders, setFolders] = useState<FolderView[]>([]);
  /** Where the next page of the thread list starts (null: all shown), and how many are shown. */
  const [moreCursor, setMoreCursor] = useState<string | null>(null);
  const shownCount = useRef(THREAD_PAGE);
  const loadingMore = useRef(false);

  const refresh = useCallback(async () => {
    try {
      // As many as are shown (up to the API's page limit), so a refresh does not shrink a scrolled list.
      const [page, list] = await Promise.all([
        api.listThreads(Math.min(200, Math.max(THREAD_PAGE, shownCount.current)), null, view),
        api.listFolders(),
      ]);
      shownCount.current = page.threads.length;
      setThreads(page.threads);
      setMoreCursor(page.nextCursor);
      setFolders(list.folders);
    } catch (err) {
      onError((err as Error).message);
    }
  }, [onError, view]);

  const loadMore = useCallback(async () => {
    if (!moreCursor || loadingMore.current) return;
    loadingMore.current = true;
    try {
      const page = await api.listThreads(THREAD_PAGE, moreCursor, view);
      setThreads((list) => {
        const seen = new Set(list.map((t) => t.id));
        const next = [...list, ...page.threads.filter((t) => !seen.has(t.id))];
        shownCount.current = next.length;
        return next;
      });
      setMoreCursor(page.nextCursor);
    } catch (err) {
      onError((err as Error).message);
    } finally {
      loadingMore.current = false;
    }
  }, [moreCursor, onError, view]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  /** A title written in the background, shown without a reload. */
  const retitle = useCallback(
    (id: string, title: string) => setThreads((list) => list.map((t) => (t.id === id ? { ...t, title } : t))),
    [],
  );

  /** Another list: all, a folder, the archive (a folder that is gone falls back to all). */
  const show = useCallback((next: ThreadListView) => {
    shownCount.current = THREAD_PAGE;
    setView(next);
  }, []);

  return { threads, folders, view, show, hasMore: moreCursor !== null, refresh, loadMore, retitle };
}
