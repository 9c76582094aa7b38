'use client';

import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { CollectionView } from '@/lib/contract/responses';

/** An attached file added to a knowledge collection, from where it is shown (the same stored bytes, indexed there). */
export function AddToCollection({ attachmentId }: { attachmentId: string }) {
  const [collections, setCollections] = useState<CollectionView[] | null>(null);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    api
      .listCollections()
      // Another person's shared collection is read-only: files go into one's own.
      .then((r) => setCollections(r.collections.filter((c) => !c.sharedBy)))
      .catch(() => setCollections([]));
  }, []);
  if (!collections || collections.length === 0) return null;
  return (
    <span className="flex items-center gap-1 text-sm">
      <select
        data-testid="add-to-collection"
        aria-label="Add this file to a knowledge collection"
        className="rounded-md border border-stone-300 bg-transparent px-1 py-1 text-sm dark:border-stone-600"
        value=""
        onChange={async (e) => {
          const target = collections.find((c) => c.id === e.target.value);
          if (!target) return;
          try {
            await api.addAttachmentToCollection(target.id, attachmentId);
            setSaid({ ok: true, text: `Added to ${target.name}` });
          } catch (err) {
            setSaid({ ok: false, text: (err as Error).message });
          }
        }}
      >
        <option value="">Add to collection…</option>
        {collections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      {said && (
        <span
          role="status"
          data-testid="added-to-collection"
          className={said.ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}
        >
          {said.text}
        </span>
      )}
    </span>
  );
}
