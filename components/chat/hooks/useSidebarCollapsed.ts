'use client';

import { useCallback, useEffect, useState } from 'react';

/**
 * Whether the thread list is folded away on a wide screen, for more room to read. Kept in this
 * browser (localStorage), read after the first render so the server's page and the browser's agree.
 * On a phone the list is a drawer and this does not apply.
 */
const KEY = 'hearth.sidebar';

export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const [collapsed, setCollapsed] = useState(false);
  useEffect(() => {
    try {
      setCollapsed(localStorage.getItem(KEY) === 'collapsed');
    } catch {
      // Storage refused (a private window's quota): the list stays shown.
    }
  }, []);
  const set = useCallback((next: boolean) => {
    setCollapsed(next);
    try {
      if (next) localStorage.setItem(KEY, 'collapsed');
      else localStorage.removeItem(KEY);
    } catch {
      // Not kept in this browser; the choice holds until the page is left.
    }
    // Focus follows the list's own button to the one that brings it back, and back again.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(next ? '[data-testid="show-sidebar"]' : '[data-testid="hide-sidebar"]')?.focus(),
    );
  }, []);
  return [collapsed, set];
}
