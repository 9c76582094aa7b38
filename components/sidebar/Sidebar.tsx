'use client';

import { Ellipsis, PanelLeftClose, Pin, SquarePen, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { ThreadSummary } from '@/lib/contract/responses';
import { groupThreads } from '@/lib/client/thread-groups';
import { threadPath } from '@/components/chat/hooks/useThread';
import { FolderList, startThreadDrag, type FolderListProps } from './FolderList';

type Props = Omit<FolderListProps, 'onArchive'> & {
  threads: ThreadSummary[];
  /** On narrow screens the sidebar is an overlay, shown when open. */
  open?: boolean;
  onClose?: () => void;
  /** On a wide screen the list can be folded away; folded, it is not shown there. */
  collapsed?: boolean;
  onCollapse?: () => void;
  header?: React.ReactNode;
  footer?: React.ReactNode;
  currentId: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, title: string) => void;
  onDelete: (id: string) => void;
  onPin: (id: string, pinned: boolean) => void;
  /** More threads than shown: called when the end of the list scrolls into view. */
  onMore?: () => void;
  onArchive: (id: string, archived: boolean) => void;
};

const MENU_ITEM = 'rounded px-2 py-1 text-left hover:bg-stone-100 dark:hover:bg-stone-800';

/** At the end of the list: asks for the next page when it comes into view (or on a click, without scrolling). */
function MoreThreads({ onMore }: { onMore: () => void }) {
  const sentinel = useRef<HTMLLIElement | null>(null);
  const latest = useRef(onMore);
  latest.current = onMore;
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) latest.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <li ref={sentinel} data-testid="more-threads" className="px-2 py-2 text-center text-xs">
      <button type="button" className="underline text-stone-600 dark:text-stone-400" onClick={() => latest.current()}>
        Older conversations
      </button>
    </li>
  );
}

function ThreadRow({
  t,
  current,
  ...p
}: { t: ThreadSummary; current: boolean } & Pick<
  Props,
  'folders' | 'onSelect' | 'onRename' | 'onDelete' | 'onPin' | 'onMove' | 'onArchive'
>) {
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
      {editing ? (
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
        <div className="flex items-center gap-2">
          <span className="truncate">Delete “{t.title || 'New chat'}”?</span>
          <button type="button" data-testid="confirm-delete" className="text-red-700" onClick={() => p.onDelete(t.id)}>
            Delete
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </div>
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

/** What the list shows, as its heading: said for every view, seen for a folder and the archive. */
function ListHeading({ view, folders }: Pick<Props, 'view' | 'folders'>) {
  const name =
    view.kind === 'archive'
      ? 'Archive'
      : view.kind === 'folder'
        ? (folders.find((f) => f.id === view.id)?.name ?? 'Folder')
        : 'All conversations';
  return (
    <h2
      data-testid="thread-list-heading"
      className={view.kind === 'all' ? 'sr-only' : 'truncate px-2 pb-1 text-sm font-semibold text-stone-800 dark:text-stone-200'}
    >
      {name}
    </h2>
  );
}

export function Sidebar(p: Props) {
  return (
    <nav
      aria-label="Threads"
      className={`${p.open ? 'fixed inset-y-0 left-0 z-30 flex shadow-xl' : 'hidden'} h-full w-72 shrink-0 flex-col border-r border-stone-200 bg-stone-100 p-2 md:static md:z-auto ${p.collapsed ? 'md:hidden' : 'md:flex'} md:w-64 md:bg-stone-100/60 md:shadow-none dark:border-stone-800 dark:bg-stone-900 md:dark:bg-stone-900/60`}
    >
      <div className="mb-2 flex items-center justify-between px-1">
        <span className="font-semibold tracking-tight">Hearth</span>
        {p.open && (
          <button type="button" aria-label="Close the thread list" className="md:hidden" onClick={p.onClose}>
            <X className="h-5 w-5" />
          </button>
        )}
        {p.onCollapse && (
          <button
            type="button"
            data-testid="hide-sidebar"
            aria-label="Hide the thread list"
            title="Hide the thread list"
            className="ml-auto mr-1 hidden rounded-md p-1 hover:bg-white md:inline-flex dark:hover:bg-stone-800"
            onClick={p.onCollapse}
          >
            <PanelLeftClose className="h-4 w-4" />
          </button>
        )}
        <button
          type="button"
          data-testid="new-thread"
          onClick={p.onNew}
          className="flex items-center gap-1 rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white dark:border-stone-700 dark:hover:bg-stone-800"
        >
          <SquarePen className="h-4 w-4" />
          New chat
        </button>
      </div>
      {p.header}
      <FolderList
        folders={p.folders}
        view={p.view}
        onView={p.onView}
        onNewFolder={p.onNewFolder}
        onRenameFolder={p.onRenameFolder}
        onDeleteFolder={p.onDeleteFolder}
        onMove={p.onMove}
        onArchive={(id) => p.onArchive(id, true)}
      />
      <ListHeading view={p.view} folders={p.folders} />
      {/* The list keeps at least 40% of the height: an open Memory panel below scrolls instead of squeezing it. */}
      <ul className="min-h-[40%] flex-1 space-y-2 overflow-y-auto" data-testid="thread-list">
        {groupThreads(p.threads, Date.now()).map((group) => (
          <li key={group.label} data-testid="thread-group" data-group={group.label}>
            <h3 className="px-2 pb-0.5 text-xs font-medium uppercase tracking-wide text-stone-600 dark:text-stone-400">{group.label}</h3>
            <ul className="space-y-0.5">
              {group.threads.map((t) => (
                <ThreadRow
                  key={t.id}
                  t={t}
                  current={t.id === p.currentId}
                  onSelect={p.onSelect}
                  onRename={p.onRename}
                  onDelete={p.onDelete}
                  onPin={p.onPin}
                  folders={p.folders}
                  onMove={p.onMove}
                  onArchive={p.onArchive}
                />
              ))}
            </ul>
          </li>
        ))}
        {p.onMore && <MoreThreads key={p.threads.length} onMore={p.onMore} />}
        {p.threads.length === 0 && (
          <li className="px-2 py-4 text-sm text-stone-600 dark:text-stone-400">
            {p.view.kind === 'archive'
              ? 'Nothing archived.'
              : p.view.kind === 'folder'
                ? 'No conversations in this folder.'
                : 'No conversations yet.'}
          </li>
        )}
      </ul>
      {p.footer && <div className="min-h-0 overflow-y-auto">{p.footer}</div>}
    </nav>
  );
}
