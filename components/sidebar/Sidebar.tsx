'use client';

import { ListChecks, PanelLeftClose, SquarePen, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { ThreadSummary } from '@/lib/contract/responses';
import { groupThreads } from '@/lib/client/thread-groups';
import type { BulkThreadsBody } from '@/lib/contract/requests';
import { BulkBar } from './BulkBar';
import { FolderList, type FolderListProps } from './FolderList';
import { ThreadRow } from './ThreadRow';

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
  /** One action on the selected threads. */
  onBulk: (ids: string[], action: BulkThreadsBody['action']) => Promise<void>;
};

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
  /** The threads selected for one action together; null while not selecting. */
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
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
      <div className="flex items-center">
        <div className="min-w-0 flex-1">
          <ListHeading view={p.view} folders={p.folders} />
        </div>
        {!selected && p.threads.length > 0 && (
          <button
            type="button"
            data-testid="select-threads"
            aria-label="Select threads"
            title="Select threads to move, archive or delete together"
            className="ml-auto shrink-0 rounded p-1 text-stone-600 hover:bg-white dark:text-stone-400 dark:hover:bg-stone-800"
            onClick={() => setSelected(new Set())}
          >
            <ListChecks className="h-4 w-4" />
          </button>
        )}
      </div>
      {selected && (
        <BulkBar
          count={selected.size}
          folders={p.folders}
          inArchive={p.view.kind === 'archive'}
          onAll={() => setSelected(selected.size === p.threads.length ? new Set() : new Set(p.threads.map((t) => t.id)))}
          onAct={async (action) => {
            await p.onBulk([...selected], action);
            setSelected(null);
          }}
          onDone={() => setSelected(null)}
        />
      )}
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
                  selection={selected ? { selected: selected.has(t.id), toggle: () => toggle(t.id) } : undefined}
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
