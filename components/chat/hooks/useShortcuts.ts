'use client';

import { useEffect, useRef } from 'react';
import { typingIn } from '../Shortcuts';

export type ShortcutHandlers = { search: () => void; newChat: () => void; showShortcuts: () => void };

/**
 * Page-wide shortcuts (listed in Shortcuts.tsx): Ctrl+K (Cmd+K on a Mac) search, Ctrl+Shift+O a
 * new chat, "?" the list, when no text box has the focus.
 */
export function useShortcuts(handlers: ShortcutHandlers) {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        latest.current.search();
      } else if (mod && e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        latest.current.newChat();
      } else if (e.key === '?' && !mod && !typingIn(e.target)) {
        e.preventDefault();
        latest.current.showShortcuts();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
