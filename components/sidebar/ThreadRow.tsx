'use client';

import { Ellipsis, Pin } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { FolderView, ThreadSummary } from '@/lib/contract/responses';
import { threadPath } from '@/components/chat/hooks/useThread';
import { ConfirmDelete } from './ConfirmDelete';
import { startThreadDrag } from './FolderList';

/** One thread in the sidebar: a link to it, its ⋯ menu (pin, rename, folder, archive, delete), or a checkbox while threads are selected. */

const MENU_ITEM = 'rounded px-2 py-1 text-left hover:bg-stone-100 dark:hover:bg-stone-800';

export function ThreadRow({
  t,
  current,
  selection,
  ...p
}: {
  t: ThreadSummary;
  current: boolean;
  /** While threads are being selected: whether this one is, and how to change it (the row is then a checkbox). */
  selection?: { selected: boolean; toggle: () => void };
  folders: FolderView[];
  onSelect: (id: string) => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
  onPin: (id: string, pinned: boolean) => void;
  onMove: (id: string, folderId: string | null) => void;
  onArchive: (id: string, archived: boolean) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [title, setTitle] = useState(t.title);
  const [menuOpen, setMenuOpen] = useState(false);
  const row = useRef<HTMLLIElement | null>(null);
  /** A menu choice: done, the menu closes. */
  const act = (fn: () => void) => () => {
    setMenuOpen(false);
    fn();
  };
  // The menu closes on a click elsewhere and on Escape, as menus do.
  useEffect(() => {
    if (!menuOpen) return;
    const outside = (e: MouseEvent) => {
      if (!row.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [menuOpen]);
  const save = () => {
    setEditing(false);
    const clean = title.trim();
    if (clean && clean !== t.title) p.onRename(t.id, clean);
    else setTitle(t.title);
  };
  return (
    <li
      ref={row}
      data-testid="thread-item"
      data-thread-id={t.id}
      className={`group rounded-md px-2 py-1.5 text-sm ${current ? 'bg-stone-200 dark:bg-stone-800' : 'hover:bg-stone-100 dark:hover:bg-stone-900'}`}
    >
      {selection ? (
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" data-testid="select-thread" checked={selection.selected} onChange={selection.toggle} />
          <span className="min-w-0 flex-1 truncate">{t.title || 'New chat'}</span>
        </label>
      ) : editing ? (
        <input
          autoFocus
          aria-label="Thread title"
          data-testid="rename-input"
          className="w-full rounded border border-stone-300 bg-white px-1 dark:bg-stone-900"
          value={title}
          maxLength={200}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={save}
          onKeyDown={(e) => {
            if (e.key === 'Enter') save();
            if (e.key === 'Escape') {
              setTitle(t.title);
              setEditing(false);
            }
          }}
        />
      ) : confirming ? (
        <ConfirmDelete
          question={`Delete “${t.title || 'New chat'}”?`}
          testId="confirm-delete"
          onDelete={() => p.onDelete(t.id)}
          onKeep={() => setConfirming(false)}
        />
      ) : (
        <div className="relative flex items-center gap-1">
          {/* A link: it opens in a new tab, and its address can be copied; a plain click opens it here without a reload; dragged onto a folder, it files the thread there. */}
          <a
            href={threadPath(t.id)}
            data-testid="thread-link"
            onDragStart={(e) => startThreadDrag(e, t.id)}
            className="min-w-0 flex-1 truncate text-left"
            onClick={(e) => {
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
              e.preventDefault();
              p.onSelect(t.id);
            }}
            title={t.title}
            aria-current={current ? 'page' : undefined}
          >
            {t.pinned && <Pin role="img" aria-label="Pinned" className="mr-1 inline h-3.5 w-3.5 align-[-2px]" />}
            {t.title || 'New chat'}
          </a>
          <button
            type="button"
            data-testid="thread-menu"
            aria-label={`Actions for “${t.title || 'New chat'}”`}
            aria-expanded={menuOpen}
            className={`shrink-0 rounded px-1 py-0.5 leading-none text-stone-600 hover:bg-stone-200 dark:text-stone-400 dark:hover:bg-stone-700 ${
              menuOpen || current ? '' : 'md:invisible md:group-hover:visible md:group-focus-within:visible'
            }`}
            onClick={() => setMenuOpen((o) => !o)}
          >
            <Ellipsis className="h-4 w-4" />
          </button>
          {menuOpen && (
            <div
              role="group"
              aria-label={`Actions for “${t.title || 'New chat'}”`}
              data-testid="thread-actions"
              className="absolute right-0 top-full z-40 mt-1 flex w-48 flex-col items-stretch rounded-md border border-stone-300 bg-white p-1 text-left text-sm shadow-lg dark:border-stone-700 dark:bg-stone-900"
            >
              <button type="button" aria-label="Pin" className={MENU_ITEM} onClick={act(() => p.onPin(t.id, !t.pinned))}>
                {t.pinned ? 'Unpin' : 'Pin'}
              </button>
              <button type="button" data-testid="rename-thread" className={MENU_ITEM} onClick={act(() => setEditing(true))}>
                Rename
              </button>
              {p.folders.length > 0 && (
                <label className="flex items-center gap-1 px-2 py-1">
                  <span className="shrink-0">Folder</span>
                  <select
                    aria-label={`Move “${t.title || 'New chat'}” to a folder`}
                    data-testid="move-thread"
                    className="min-w-0 flex-1 rounded border border-stone-300 bg-transparent dark:border-stone-700"
                    value={t.folderId ?? ''}
                    onChange={(e) => act(() => p.onMove(t.id, e.target.value || null))()}
                  >
                    <option value="">No folder</option>
                    {p.folders.map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.name}
                      </option>
                    ))}
                  </select>
                </label>
              )}
              <button type="button" data-testid="archive-thread" className={MENU_ITEM} onClick={act(() => p.onArchive(t.id, !t.archived))}>
                {t.archived ? 'Unarchive' : 'Archive'}
              </button>
              <button
                type="button"
                data-testid="delete-thread"
                className={`${MENU_ITEM} text-red-700 dark:text-red-400`}
                onClick={act(() => setConfirming(true))}
              >
                Delete…
              </button>
            </div>
          )}
        </div>
      )}
    </li>
  );
}
