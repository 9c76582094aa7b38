'use client';

import { useState } from 'react';
import { api } from '@/lib/client/api';
import { HEADER_MENU } from './hooks/useMenuDismiss';
import { toolLabel } from '@/lib/shared/words/tools';

type ThreadTool = { name: string; source: string; description: string; enabled: boolean };

/** The thread's tools: each can be switched off for this thread only (Settings switches them off everywhere). */
export function ThreadTools({ threadId }: { threadId: string }) {
  const [tools, setTools] = useState<ThreadTool[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api
      .threadTools(threadId)
      .then((r) => setTools(r.tools))
      .catch((err: Error) => setError(err.message));
  const toggle = async (name: string, enabled: boolean) => {
    if (!tools) return;
    const next = tools.map((t) => (t.name === name ? { ...t, enabled } : t));
    setTools(next);
    try {
      await api.patchThread(threadId, { disabledTools: next.filter((t) => !t.enabled).map((t) => t.name) });
    } catch (err) {
      setError((err as Error).message);
      void load();
    }
  };
  return (
    <details
      name={HEADER_MENU}
      className="text-xs md:relative"
      data-testid="thread-tools"
      onToggle={(e) => (e.currentTarget.open ? void load() : undefined)}
    >
      <summary className="cursor-pointer text-stone-600 underline dark:text-stone-400">Tools</summary>
      <div className="absolute right-0 z-20 mt-1 max-h-80 w-72 overflow-auto max-md:left-2 max-md:right-2 max-md:w-auto rounded-md border border-stone-300 bg-white p-2 shadow dark:border-stone-700 dark:bg-stone-900">
        <p className="mb-1 text-stone-600 dark:text-stone-400">Tools in this thread</p>
        {error && <p className="text-red-700 dark:text-red-300">{error}</p>}
        {!tools && !error && <p>Loading…</p>}
        <ul className="space-y-0.5">
          {tools?.map((t) => (
            <li key={t.name}>
              <label className="flex items-center gap-1" title={t.description}>
                <input
                  type="checkbox"
                  data-testid="thread-tool"
                  data-tool={t.name}
                  checked={t.enabled}
                  onChange={(e) => void toggle(t.name, e.target.checked)}
                />
                <span>{toolLabel(t.name)}</span>
                {t.source !== 'Hearth' && <span className="text-stone-500">({t.source})</span>}
              </label>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}
