'use client';

import Link from 'next/link';
import { useState } from 'react';
import { api } from '@/lib/client/api';
import { HEADER_MENU } from './hooks/useMenuDismiss';
import type { CollectionView } from '@/lib/contract/responses';

/** The knowledge collections this thread searches: its own choice, and those every thread uses (shown, not changed here). */
export function ThreadKnowledge({ threadId }: { threadId: string }) {
  const [collections, setCollections] = useState<CollectionView[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    Promise.all([api.listCollections(), api.getThread(threadId)])
      .then(([list, thread]) => {
        setCollections(list.collections);
        setChosen(thread.collectionIds ?? []);
      })
      .catch((err: Error) => setError(err.message));
  const toggle = async (id: string, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((c) => c !== id);
    setChosen(next);
    try {
      const thread = await api.patchThread(threadId, { collectionIds: next });
      setChosen(thread.collectionIds ?? next);
    } catch (err) {
      setError((err as Error).message);
      void load();
    }
  };
  return (
    <details
      name={HEADER_MENU}
      className="text-xs md:relative"
      data-testid="thread-knowledge"
      onToggle={(e) => (e.currentTarget.open ? void load() : undefined)}
    >
      <summary className="cursor-pointer text-stone-600 underline dark:text-stone-400">Knowledge</summary>
      <div className="absolute right-0 z-20 mt-1 max-h-80 w-72 overflow-auto max-md:left-2 max-md:right-2 max-md:w-auto rounded-md border border-stone-300 bg-white p-2 shadow dark:border-stone-700 dark:bg-stone-900">
        <p className="mb-1 text-stone-600 dark:text-stone-400">Collections this thread searches</p>
        {error && <p className="text-red-700 dark:text-red-300">{error}</p>}
        {!collections && !error && <p>Loading…</p>}
        {collections?.length === 0 && <p>No collections yet.</p>}
        <ul className="space-y-0.5">
          {collections?.map((c) => (
            <li key={c.id}>
              <label
                className="flex items-center gap-1"
                title={
                  c.sharedBy
                    ? `Shared with everyone by ${c.sharedBy}: every conversation searches it`
                    : c.everyThread
                      ? 'Used by every conversation (change it on the Knowledge page)'
                      : undefined
                }
              >
                <input
                  type="checkbox"
                  data-testid="thread-collection"
                  data-collection={c.name}
                  checked={c.everyThread || Boolean(c.sharedBy) || chosen.includes(c.id)}
                  disabled={c.everyThread || Boolean(c.sharedBy)}
                  onChange={(e) => void toggle(c.id, e.target.checked)}
                />
                <span className="truncate">{c.name}</span>
                <span className="text-stone-500">
                  ({c.files} file{c.files === 1 ? '' : 's'}
                  {c.sharedBy ? `, shared by ${c.sharedBy}` : c.everyThread ? ', every thread' : ''})
                </span>
              </label>
            </li>
          ))}
        </ul>
        <Link href="/knowledge" className="mt-1 block underline">
          Manage collections
        </Link>
      </div>
    </details>
  );
}
