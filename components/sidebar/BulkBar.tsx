'use client';

import { useState } from 'react';
import type { FolderView } from '@/lib/contract/responses';
import type { BulkThreadsBody } from '@/lib/contract/requests';
import { ConfirmDelete } from './ConfirmDelete';

/**
 * What can be done with the threads selected in the sidebar: move them to a folder, archive them
 * (or bring them back, in the archive), delete them (asked once more, in place). "Done" ends the
 * selection; after an action it ends by itself.
 */
export function BulkBar({
  count,
  folders,
  inArchive,
  onAll,
  onAct,
  onDone,
}: {
  count: number;
  folders: FolderView[];
  /** The list shows the archive: its action brings threads back. */
  inArchive: boolean;
  /** Selects every thread shown (or none, when all are). */
  onAll: () => void;
  onAct: (action: BulkThreadsBody['action']) => Promise<void>;
  onDone: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const act = async (action: BulkThreadsBody['action']) => {
    setBusy(true);
    try {
      await onAct(action);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  const button =
    'rounded border border-stone-300 px-1.5 py-0.5 hover:bg-white disabled:opacity-40 dark:border-stone-700 dark:hover:bg-stone-800';
  const none = count === 0 || busy;
  return (
    <div
      role="toolbar"
      aria-label="Selected threads"
      data-testid="bulk-bar"
      className="mb-1 space-y-1 rounded-md bg-stone-200/70 p-1.5 text-xs dark:bg-stone-800/70"
    >
      <div className="flex items-center gap-2">
        <span data-testid="bulk-count" aria-live="polite">
          {count} selected
        </span>
        <button type="button" className="underline" data-testid="bulk-all" onClick={onAll}>
          All shown
        </button>
        <button type="button" className="ml-auto underline" data-testid="bulk-done" onClick={onDone}>
          Done
        </button>
      </div>
      {confirming ? (
        <ConfirmDelete
          question={`Delete ${count} thread${count === 1 ? '' : 's'}? This cannot be undone.`}
          testId="bulk-confirm-delete"
          disabled={busy}
          truncate={false}
          onDelete={() => void act({ kind: 'delete' })}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <div className="flex flex-wrap items-center gap-1">
          {folders.length > 0 && (
            <select
              aria-label="Move the selected threads to a folder"
              data-testid="bulk-move"
              disabled={none}
              value=""
              className={`${button} bg-transparent`}
              onChange={(e) => {
                if (e.target.value) void act({ kind: 'move', folderId: e.target.value === 'none' ? null : e.target.value });
              }}
            >
              <option value="">Move to…</option>
              <option value="none">No folder</option>
              {folders.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          )}
          <button
            type="button"
            data-testid="bulk-archive"
            disabled={none}
            className={button}
            onClick={() => void act({ kind: 'archive', archived: !inArchive })}
          >
            {inArchive ? 'Unarchive' : 'Archive'}
          </button>
          <button
            type="button"
            data-testid="bulk-delete"
            disabled={none}
            className={`${button} text-red-700 dark:text-red-400`}
            onClick={() => setConfirming(true)}
          >
            Delete…
          </button>
        </div>
      )}
    </div>
  );
}
