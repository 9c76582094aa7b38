'use client';

import { Folder, FolderPlus } from 'lucide-react';
import { useState } from 'react';
import type { ThreadListView } from '@/lib/client/api';
import type { FolderView } from '@/lib/contract/responses';

/** The drag data of a thread row: its id, under a type only Hearth's own rows carry. */
export const THREAD_DRAG_TYPE = 'application/x-hearth-thread';

/** Starts dragging a thread (its row's link): what a folder, All conversations or the Archive takes when it is dropped there. */
export function startThreadDrag(e: React.DragEvent, threadId: string): void {
  e.dataTransfer.setData(THREAD_DRAG_TYPE, threadId);
  e.dataTransfer.effectAllowed = 'move';
}

export type FolderListProps = {
  /** The folders, and which list is shown (all, a folder, the archive). */
  folders: FolderView[];
  view: ThreadListView;
  onView: (view: ThreadListView) => void;
  onNewFolder: (name: string) => void;
  onRenameFolder: (id: string, name: string) => void;
  onDeleteFolder: (id: string) => void;
  /** A thread dropped on a folder (or on All conversations: out of its folder). */
  onMove: (threadId: string, folderId: string | null) => void;
  /** A thread dropped on the Archive. */
  onArchive: (threadId: string) => void;
};

const same = (a: ThreadListView, b: ThreadListView) => a.kind === b.kind && (a.kind !== 'folder' || a.id === (b as { id: string }).id);

/**
 * Below the folders: a new folder, and the folder shown renamed or deleted, each asked in place
 * (as a thread row is renamed and deleted), never in a browser prompt.
 */
function FolderActions({
  shown,
  onNew,
  onRename,
  onDelete,
}: {
  shown: FolderView | undefined;
  onNew: (name: string) => void;
  onRename: (id: string, name: string) => void;
  onDelete: (id: string) => void;
}) {
  const [asking, setAsking] = useState<'new' | 'rename' | 'delete' | null>(null);
  const [name, setName] = useState('');
  const done = () => setAsking(null);
  const ask = (what: 'new' | 'rename' | 'delete') => {
    setName(what === 'rename' ? (shown?.name ?? '') : '');
    setAsking(what);
  };
  const link = 'underline';
  if (asking === 'new' || (asking === 'rename' && shown)) {
    const label = asking === 'new' ? 'Name of the new folder' : 'New name of the folder';
    return (
      <form
        className="mt-1 flex items-center gap-1 px-1 text-xs"
        onSubmit={(e) => {
          e.preventDefault();
          const clean = name.trim();
          done();
          if (!clean) return;
          if (asking === 'new') onNew(clean);
          else if (shown && clean !== shown.name) onRename(shown.id, clean);
        }}
      >
        <input
          autoFocus
          aria-label={label}
          data-testid="folder-name-input"
          placeholder={label}
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && done()}
          className="min-w-0 flex-1 rounded border border-stone-300 bg-white px-1 py-0.5 text-sm dark:border-stone-700 dark:bg-stone-900"
        />
        <button type="submit" className={link} disabled={!name.trim()}>
          {asking === 'new' ? 'Make' : 'Save'}
        </button>
        <button type="button" onClick={done}>
          Cancel
        </button>
      </form>
    );
  }
  if (asking === 'delete' && shown) {
    return (
      <div className="mt-1 px-1 text-xs" data-testid="folder-delete-question">
        <p>Delete the folder “{shown.name}”? Its conversations stay, in no folder.</p>
        <div className="mt-1 flex gap-3">
          <button
            type="button"
            data-testid="confirm-delete-folder"
            className="text-red-700 underline dark:text-red-400"
            onClick={() => {
              done();
              onDelete(shown.id);
            }}
          >
            Delete
          </button>
          <button type="button" autoFocus onClick={done}>
            Keep
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2 px-1 text-xs text-stone-700 dark:text-stone-300">
      <button type="button" data-testid="new-folder" className={`${link} inline-flex items-center gap-1`} onClick={() => ask('new')}>
        <FolderPlus className="h-3.5 w-3.5" />
        New folder
      </button>
      {shown && (
        <>
          <button type="button" data-testid="rename-folder" className={link} onClick={() => ask('rename')}>
            Rename folder
          </button>
          <button type="button" data-testid="delete-folder" className={link} onClick={() => ask('delete')}>
            Delete folder
          </button>
        </>
      )}
    </div>
  );
}

/**
 * Which conversations the list shows: all (not archived), a folder's, or the archive. Each entry
 * is also where a thread row can be dropped: into a folder, out of its folder (All
 * conversations), into the archive. The row's menu does the same without a mouse.
 */
export function FolderList(p: FolderListProps) {
  /** The entry a thread is being dragged over, to light it up. */
  const [over, setOver] = useState<string | null>(null);
  const entries: {
    key: string;
    view: ThreadListView;
    label: string;
    folder?: boolean;
    testId: string;
    drop: (threadId: string) => void;
  }[] = [
    { key: 'all', view: { kind: 'all' }, label: 'All conversations', testId: 'view-all', drop: (id) => p.onMove(id, null) },
    ...p.folders.map((f) => ({
      key: `folder:${f.id}`,
      view: { kind: 'folder', id: f.id } as ThreadListView,
      label: `${f.name} (${f.threads})`,
      folder: true,
      testId: 'view-folder',
      drop: (id: string) => p.onMove(id, f.id),
    })),
    { key: 'archive', view: { kind: 'archive' }, label: 'Archive', testId: 'view-archive', drop: p.onArchive },
  ];
  const shownFolder = p.view.kind === 'folder' ? p.folders.find((f) => f.id === (p.view as { id: string }).id) : undefined;
  return (
    <div className="mb-2 px-1 text-sm" data-testid="folder-list">
      <ul aria-label="Show conversations" className="max-h-44 space-y-0.5 overflow-y-auto">
        {entries.map((e) => {
          const current = same(e.view, p.view);
          return (
            <li key={e.key}>
              <button
                type="button"
                data-testid={e.testId}
                data-folder-id={e.view.kind === 'folder' ? e.view.id : undefined}
                aria-pressed={current}
                className={`w-full truncate rounded-md px-2 py-0.5 text-left ${
                  over === e.key
                    ? 'bg-amber-100 ring-2 ring-amber-500 dark:bg-amber-900/40'
                    : current
                      ? 'bg-stone-200 font-medium dark:bg-stone-800'
                      : 'hover:bg-stone-100 dark:hover:bg-stone-800'
                }`}
                onClick={() => p.onView(e.view)}
                onDragOver={(ev) => {
                  if (!ev.dataTransfer.types.includes(THREAD_DRAG_TYPE)) return;
                  ev.preventDefault();
                  ev.dataTransfer.dropEffect = 'move';
                  setOver(e.key);
                }}
                onDragLeave={() => setOver((k) => (k === e.key ? null : k))}
                onDrop={(ev) => {
                  const id = ev.dataTransfer.getData(THREAD_DRAG_TYPE);
                  setOver(null);
                  if (!id) return;
                  ev.preventDefault();
                  e.drop(id);
                }}
              >
                {e.folder && <Folder className="mr-1 inline h-3.5 w-3.5 align-[-2px]" />}
                {e.label}
              </button>
            </li>
          );
        })}
      </ul>
      <FolderActions shown={shownFolder} onNew={p.onNewFolder} onRename={p.onRenameFolder} onDelete={p.onDeleteFolder} />
    </div>
  );
}
