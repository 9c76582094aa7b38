'use client';

import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import { collectionLine, searchModeText } from '@/lib/client/knowledge-text';
import type { CollectionView } from '@/lib/contract/responses';
import { CollectionPanel } from './CollectionPanel';
import { buttonClass, inputClass } from './styles';

/**
 * Knowledge collections: documents asked about in any conversation. Make a collection, add
 * files (several at once, or a zip of a folder), watch them index, try a search, and choose
 * whether every conversation uses it (otherwise a thread picks it in its header).
 */

type SearchMode = { byMeaning: boolean; embeddingsError: string | null };

export function KnowledgePage() {
  const [collections, setCollections] = useState<CollectionView[] | null>(null);
  const [mode, setMode] = useState<SearchMode | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The owner and admins share their collections with everyone. */
  const [mayShare, setMayShare] = useState(false);
  useEffect(() => {
    api
      .session()
      .then((s) => setMayShare(!s.required || s.person?.role !== 'member'))
      .catch(() => undefined);
  }, []);

  const reload = useCallback(async () => {
    try {
      const r = await api.listCollections();
      setCollections(r.collections);
      setMode(r.search);
      setSelected((s) => s ?? r.collections[0]?.id ?? null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  async function create() {
    setError(null);
    try {
      const c = await api.createCollection(name);
      setName('');
      setSelected(c.id);
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <main className="mx-auto max-w-5xl space-y-4 p-4">
      <div className="flex items-baseline gap-3">
        <h1 className="text-xl font-semibold">Knowledge</h1>
        <Link href="/" className="text-sm underline">
          Back to chats
        </Link>
      </div>
      <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="knowledge-mode">
        {searchModeText(mode)} A conversation uses a collection when you choose it in its header, or every conversation when you say so
        here.
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
        <aside className="space-y-2">
          <form
            className="flex gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              void create();
            }}
          >
            <input
              data-testid="new-collection-name"
              aria-label="New collection name"
              placeholder="New collection"
              className={`${inputClass} min-w-0 flex-1`}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <button type="submit" data-testid="create-collection" className={buttonClass} disabled={!name.trim()}>
              Create
            </button>
          </form>
          {collections?.length === 0 && <p className="text-sm text-stone-600 dark:text-stone-400">No collections yet.</p>}
          <ul className="space-y-1" data-testid="collections">
            {collections?.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  data-testid="collection"
                  aria-current={c.id === selected}
                  onClick={() => setSelected(c.id)}
                  className={`w-full rounded-md px-2 py-1 text-left text-sm ${c.id === selected ? 'bg-stone-200 dark:bg-stone-800' : 'hover:bg-stone-100 dark:hover:bg-stone-900'}`}
                >
                  <span className="block truncate font-medium">{c.name}</span>
                  <span className="text-xs text-stone-600 dark:text-stone-400">{collectionLine(c)}</span>
                </button>
              </li>
            ))}
          </ul>
        </aside>
        {selected && (
          <CollectionPanel
            key={selected}
            id={selected}
            mayShare={mayShare}
            onChanged={() => void reload()}
            onDeleted={() => {
              setSelected(null);
              void reload();
            }}
          />
        )}
      </div>
    </main>
  );
}
