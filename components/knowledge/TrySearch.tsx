'use client';

import { useState } from 'react';
import { api } from '@/lib/client/api';
import type { PassageView } from '@/lib/contract/responses';
import { placeOf } from '@/lib/shared/words/place';
import { buttonClass, inputClass } from './styles';

/** A search over the collection as search_documents would make it, each passage opening in the viewer. */
export function TrySearch({ id }: { id: string }) {
  const [q, setQ] = useState('');
  const [result, setResult] = useState<{ passages: PassageView[]; byMeaning: boolean; note?: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      <form
        className="flex gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          api
            .searchCollection(id, q)
            .then(setResult)
            .catch((err: Error) => setError(err.message));
        }}
      >
        <input
          data-testid="collection-search"
          aria-label="Search this collection"
          placeholder="Try a question"
          className={`${inputClass} min-w-0 flex-1`}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit" className={buttonClass} disabled={!q.trim()}>
          Search
        </button>
      </form>
      {error && <p className="text-sm text-red-700 dark:text-red-300">{error}</p>}
      {result && (
        <ol className="space-y-2 text-sm" data-testid="collection-passages">
          {result.passages.length === 0 && <li>Nothing found.</li>}
          {result.passages.map((p) => (
            <li key={p.chunkId} className="rounded-md border border-stone-200 p-2 dark:border-stone-800">
              <a
                className="text-xs underline"
                href={`/knowledge/${encodeURIComponent(p.collectionId)}/files/${encodeURIComponent(p.fileId)}?from=${p.lineStart}&to=${p.lineEnd}`}
              >
                [{p.n}] {p.fileName}, {placeOf(p)}
              </a>
              <span className="ml-2 text-xs text-stone-500">found by {p.foundBy.join(' and ')}</span>
              <p className="mt-1 line-clamp-4 whitespace-pre-wrap text-stone-700 dark:text-stone-300">{p.text}</p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
