'use client';

import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import { matching, triggerOf, withoutToken } from '@/lib/client/suggest';

/**
 * The message box's suggestions: "/" alone offers the saved prompts (Settings → Saved prompts),
 * "#" offers the knowledge collections. Up and Down move, Enter or Tab chooses, Escape closes.
 * A prompt's text takes the command's place; a collection is searched in this thread from then
 * on and its "#name" leaves the text.
 */

type Item = { key: string; name: string; detail: string; choose: () => void };
export type Collection = { id: string; name: string };

export function useSuggestions({
  text,
  setText,
  onCollection,
}: {
  text: string;
  setText: (text: string) => void;
  onCollection: (collection: Collection) => void;
}) {
  const trigger = triggerOf(text);
  const kind = trigger?.kind ?? null;
  const [prompts, setPrompts] = useState<{ name: string; text: string }[] | null>(null);
  const [collections, setCollections] = useState<Collection[] | null>(null);
  const [active, setActive] = useState(0);
  const [closedFor, setClosedFor] = useState<string | null>(null);
  // Each list is read when it is first wanted, and again the next time (a prompt saved meanwhile shows).
  useEffect(() => {
    if (kind === 'prompt')
      void api.listPrompts().then(
        (r) => setPrompts(r.prompts),
        () => setPrompts([]),
      );
    if (kind === 'collection')
      void api.listCollections().then(
        // A collection shared by another is searched in every thread already (and is not theirs to choose).
        (r) => setCollections(r.collections.filter((c) => !('sharedBy' in c && c.sharedBy))),
        () => setCollections([]),
      );
  }, [kind]);

  let items: Item[] = [];
  if (trigger?.kind === 'prompt' && prompts) {
    items = matching(prompts, trigger.query).map((p) => ({
      key: p.name,
      name: `/${p.name}`,
      detail: p.text.split('\n')[0].slice(0, 80),
      choose: () => setText(p.text),
    }));
  } else if (trigger?.kind === 'collection' && collections) {
    items = matching(collections, trigger.query).map((c) => ({
      key: c.id,
      name: `#${c.name}`,
      detail: 'search it in this thread',
      choose: () => {
        setText(withoutToken(text, trigger.start));
        onCollection({ id: c.id, name: c.name });
      },
    }));
  }
  const open = items.length > 0 && closedFor !== text;
  const current = Math.min(active, Math.max(0, items.length - 1));

  /** The box's keys while the list is open; true when one was used here. */
  const onKeyDown = (e: React.KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((current + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      e.preventDefault();
      items[current].choose();
      setActive(0);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setClosedFor(text);
      return true;
    }
    return false;
  };

  const list = open ? (
    <div className="absolute bottom-full left-0 right-0 z-20 mb-1">
      <ul
        role="listbox"
        aria-label={kind === 'prompt' ? 'Saved prompts' : 'Knowledge collections'}
        data-testid="suggestions"
        className="max-h-64 overflow-auto rounded-md border border-stone-300 bg-white py-1 text-sm shadow-lg dark:border-stone-700 dark:bg-stone-900"
      >
        {items.map((item, i) => (
          <li
            key={item.key}
            role="option"
            aria-selected={i === current}
            data-testid="suggestion"
            className={`flex cursor-pointer items-baseline gap-2 px-3 py-1 ${i === current ? 'bg-amber-100 dark:bg-stone-800' : ''}`}
            // mousedown, not click: the box keeps its focus.
            onMouseDown={(e) => {
              e.preventDefault();
              item.choose();
            }}
          >
            <span className="font-medium">{item.name}</span>
            <span className="truncate text-xs text-stone-600 dark:text-stone-400">{item.detail}</span>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {items.length} suggestion{items.length === 1 ? '' : 's'}: Up and Down to move, Enter to choose, Escape to close.
      </p>
    </div>
  ) : null;
  return { list, onKeyDown };
}
