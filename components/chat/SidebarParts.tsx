'use client';

import Link from 'next/link';
import { api } from '@/lib/client/api';
import { LogoutButton } from '@/components/auth/LogoutButton';
import { LibraryPanel } from '@/components/sidebar/LibraryPanel';
import { MemoryPanel } from '@/components/sidebar/MemoryPanel';
import type { useMemories } from './hooks/useMemories';

/** The chat page's sidebar around its thread list: search above it; memory, the library, Knowledge, Settings and logging out below. */

export function SearchButton({ onOpen }: { onOpen: () => void }) {
  return (
    <button
      type="button"
      data-testid="open-search"
      onClick={onOpen}
      className="mb-2 flex w-full items-center rounded-md border border-stone-300 bg-white px-2 py-1 text-left text-sm text-stone-600 dark:text-stone-400 dark:border-stone-700 dark:bg-stone-900"
    >
      Search conversations
      {/* a keyboard shortcut: not shown where there is usually no keyboard */}
      <kbd
        data-testid="search-shortcut"
        className="ml-auto hidden rounded border border-stone-300 px-1 text-[10px] md:inline dark:border-stone-700"
      >
        Ctrl K
      </kbd>
    </button>
  );
}

export function SidebarFooter({
  memories,
  onImported,
}: {
  memories: ReturnType<typeof useMemories>;
  /** An import changed the threads and memory: they are read again. */
  onImported: () => Promise<unknown>;
}) {
  return (
    <>
      <MemoryPanel
        facts={memories.memories}
        error={memories.error}
        onAdd={memories.add}
        onEdit={memories.edit}
        onForget={memories.forget}
      />
      <LibraryPanel
        onImport={async (file, onProgress) => {
          const summary = await api.importLibrary(file, onProgress);
          await onImported();
          return summary;
        }}
      />
      <Link
        href="/knowledge"
        data-testid="open-knowledge"
        className="mt-2 block rounded-md px-2 py-1 text-sm text-stone-700 hover:bg-white dark:text-stone-300 dark:hover:bg-stone-800"
      >
        Knowledge
      </Link>
      <a
        href="/settings"
        data-testid="open-settings"
        className="mt-2 block rounded-md px-2 py-1 text-sm text-stone-700 hover:bg-white dark:text-stone-300 dark:hover:bg-stone-800"
      >
        Settings
      </a>
      <LogoutButton />
    </>
  );
}
