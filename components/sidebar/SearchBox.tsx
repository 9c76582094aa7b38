'use client';

import { useState } from 'react';

export type SearchHit = { threadId: string; messageId: string; title: string; snippet: string; createdAt: number };

/** Search every conversation; a hit opens its thread. */
export function SearchBox({ onSearch, onOpen }: { onSearch: (q: string) => Promise<SearchHit[]>; onOpen: (threadId: string) => void }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  return (
    <div className="mb-2">
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setHits(q.trim() ? await onSearch(q.trim()) : null);
        }}
      >
        <input
          type="search"
          aria-label="Search conversations"
          data-testid="search-input"
          value={q}
          maxLength={200}
          placeholder="Search conversations"
          onChange={(e) => {
            setQ(e.target.value);
            if (!e.target.value) setHits(null);
          }}
          className="w-full rounded-md border border-stone-300 bg-white px-2 py-1 text-sm dark:border-stone-700 dark:bg-stone-900"
        />
      </form>
      {hits && (
        <ul data-testid="search-results" className="mt-1 max-h-64 space-y-1 overflow-y-auto text-xs">
          {hits.length === 0 && <li className="px-1 text-stone-500">Nothing found.</li>}
          {hits.map((h) => (
            <li key={h.messageId}>
              <button type="button" data-testid="search-hit" className="w-full rounded px-1 py-0.5 text-left hover:bg-stone-200 dark:hover:bg-stone-800" onClick={() => onOpen(h.threadId)}>
                <div className="font-medium">{h.title || 'Untitled'}</div>
                <div className="text-stone-500">{h.snippet}</div>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
