'use client';

import { useState } from 'react';
import type { MemoryFact } from '@/lib/contract/responses';

/** What Hearth remembers about you: add a fact, see them all, edit or forget one. */
export function MemoryPanel({
  facts,
  error,
  onAdd,
  onEdit,
  onForget,
}: {
  facts: MemoryFact[];
  error: string | null;
  onAdd: (text: string) => Promise<boolean>;
  onEdit: (id: string, text: string) => Promise<boolean>;
  onForget: (id: string) => void;
}) {
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  return (
    <details data-testid="memory-panel" className="border-t border-stone-200 pt-2 text-sm dark:border-stone-800">
      <summary className="cursor-pointer select-none px-1 font-medium">Memory ({facts.length})</summary>
      <form
        className="mt-2 flex gap-1"
        onSubmit={async (e) => {
          e.preventDefault();
          const value = text;
          // Cleared once kept, unless something else was typed meanwhile.
          if (value.trim() && (await onAdd(value))) setText((current) => (current === value ? '' : current));
        }}
      >
        <input
          aria-label="Something to remember"
          data-testid="memory-input"
          value={text}
          maxLength={300}
          placeholder="e.g. I am vegetarian"
          onChange={(e) => setText(e.target.value)}
          className="min-w-0 flex-1 rounded border border-stone-300 bg-white px-2 py-1 dark:border-stone-700 dark:bg-stone-900"
        />
        <button type="submit" data-testid="memory-add" className="rounded border border-stone-300 px-2 dark:border-stone-700">
          Add
        </button>
      </form>
      {error && (
        <div role="alert" data-testid="memory-error" className="mt-1 text-xs text-red-700 dark:text-red-300">
          {error}
        </div>
      )}
      <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto">
        {facts.map((f) => (
          <li key={f.id} data-testid="memory-fact" className="group flex items-start gap-1">
            {editing?.id === f.id ? (
              <form
                className="flex flex-1 gap-1"
                onSubmit={async (e) => {
                  e.preventDefault();
                  const next = editing.text;
                  if (next.trim() === f.text || (next.trim() && (await onEdit(f.id, next)))) setEditing(null);
                }}
              >
                <input
                  autoFocus
                  aria-label={`Edit: ${f.text}`}
                  data-testid="memory-edit-input"
                  value={editing.text}
                  maxLength={300}
                  onChange={(e) => setEditing({ id: f.id, text: e.target.value })}
                  onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
                  className="min-w-0 flex-1 rounded border border-stone-300 bg-white px-1 dark:border-stone-700 dark:bg-stone-900"
                />
                <button type="submit" data-testid="memory-save" className="text-xs">
                  Save
                </button>
              </form>
            ) : (
              <>
                <span className="flex-1">{f.text}</span>
                <button
                  type="button"
                  aria-label={`Edit: ${f.text}`}
                  data-testid="memory-edit"
                  className="text-xs text-stone-600 dark:text-stone-400 hover:text-stone-900 dark:hover:text-stone-100"
                  onClick={() => setEditing({ id: f.id, text: f.text })}
                >
                  Edit
                </button>
              </>
            )}
            <button
              type="button"
              aria-label={`Forget: ${f.text}`}
              data-testid="memory-forget"
              className="text-xs text-stone-600 dark:text-stone-400 hover:text-red-700"
              onClick={() => onForget(f.id)}
            >
              Forget
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
