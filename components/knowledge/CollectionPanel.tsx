'use client';

import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import { count } from '@/lib/client/knowledge-text';
import type { CollectionDetail } from '@/lib/contract/responses';
import { CollectionFiles } from './CollectionFiles';
import { buttonClass, inputClass } from './styles';
import { TrySearch } from './TrySearch';

/**
 * One collection: its name, whether every conversation uses it, whether everyone on this Hearth
 * may search it (the owner's and admins' to say), deleting it, its files and a search to try.
 * Another person's shared collection is shown read-only: its files and the search.
 */
export function CollectionPanel({
  id,
  mayShare,
  onChanged,
  onDeleted,
}: {
  id: string;
  mayShare: boolean;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const [detail, setDetail] = useState<CollectionDetail | null>(null);
  const [rename, setRename] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Deleting is asked in the panel: the question is shown until it is answered. */
  const [confirmingDelete, setConfirmingDelete] = useState(false);

  const load = useCallback(
    () =>
      api
        .getCollection(id)
        .then(setDetail)
        .catch((err: Error) => setError(err.message)),
    [id],
  );
  useEffect(() => void load(), [load]);
  // While files index, their progress is asked for again each second.
  const busy = detail?.fileList.some((f) => f.status === 'queued' || f.status === 'indexing') ?? false;
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void load().then(onChanged), 1000);
    return () => clearInterval(timer);
  }, [busy, load, onChanged]);

  async function save(patch: { name?: string; everyThread?: boolean; shared?: boolean }) {
    try {
      await api.patchCollection(id, patch);
      setRename(null);
      await load();
      onChanged();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function remove() {
    try {
      await api.deleteCollection(id);
      onDeleted();
    } catch (err) {
      setConfirmingDelete(false);
      setError((err as Error).message);
    }
  }

  if (!detail) return <section>{error ? <p role="alert">{error}</p> : <p>Loading…</p>}</section>;
  if (detail.sharedBy)
    return (
      <section className="space-y-4 rounded-xl border border-stone-200 p-4 dark:border-stone-800" data-testid="collection-panel">
        <h2 className="text-lg font-semibold" data-testid="collection-name">
          {detail.name}
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="shared-by">
          Shared with everyone by {detail.sharedBy}: every conversation of yours searches it; only they change it.
        </p>
        <CollectionFiles detail={detail} reload={load} onChanged={onChanged} onError={setError} readOnly />
        <TrySearch id={id} />
      </section>
    );
  return (
    <section className="space-y-4 rounded-xl border border-stone-200 p-4 dark:border-stone-800" data-testid="collection-panel">
      <div className="flex flex-wrap items-center gap-2">
        {rename === null ? (
          <h2 className="text-lg font-semibold" data-testid="collection-name">
            {detail.name}
          </h2>
        ) : (
          <input
            aria-label="Collection name"
            className={inputClass}
            value={rename}
            onChange={(e) => setRename(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && void save({ name: rename })}
          />
        )}
        <button
          type="button"
          className={buttonClass}
          onClick={() => (rename === null ? setRename(detail.name) : void save({ name: rename }))}
        >
          {rename === null ? 'Rename' : 'Save'}
        </button>
        <label className="flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            data-testid="every-thread"
            checked={detail.everyThread}
            onChange={(e) => void save({ everyThread: e.target.checked })}
          />
          Use in every conversation
        </label>
        {mayShare && (
          <label
            className="flex items-center gap-1 text-sm"
            title="Everyone on this Hearth searches it in their conversations; only you change it"
          >
            <input
              type="checkbox"
              data-testid="share-collection"
              checked={detail.shared}
              onChange={(e) => void save({ shared: e.target.checked })}
            />
            Share with everyone
          </label>
        )}
        <button
          type="button"
          data-testid="delete-collection"
          className={`${buttonClass} ml-auto text-red-700 dark:text-red-300`}
          onClick={() => setConfirmingDelete(true)}
        >
          Delete
        </button>
      </div>
      {confirmingDelete && (
        <div
          role="group"
          aria-label="Delete this collection?"
          data-testid="collection-delete-question"
          className="flex flex-wrap items-center gap-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm dark:border-red-900 dark:bg-red-950"
        >
          <span>
            Delete the collection “{detail.name}” and its {count(detail.files, 'file')}? Conversations keep their answers.
          </span>
          <button
            type="button"
            data-testid="confirm-delete-collection"
            className={`${buttonClass} text-red-700 dark:text-red-300`}
            onClick={() => void remove()}
          >
            Delete
          </button>
          <button type="button" autoFocus className={buttonClass} onClick={() => setConfirmingDelete(false)}>
            Keep
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <CollectionFiles detail={detail} reload={load} onChanged={onChanged} onError={setError} />
      <TrySearch id={id} />
    </section>
  );
}
