'use client';

import { useEffect, type RefObject } from 'react';

/**
 * The `name` the thread header's menus (Knowledge, Tools, Export) share: the browser keeps one
 * `<details>` of a name open at a time, so opening one closes the others.
 */
export const HEADER_MENU = 'thread-header-menu';

/**
 * The menus (`<details>`) inside `container` behave as menus do: a click or tap anywhere
 * outside an open one closes it, and Escape closes it and gives focus back to its button.
 * (That only one is open at a time comes from the `name` they share: HEADER_MENU.)
 */
export function useMenuDismiss(container: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const openMenus = () => Array.from(container.current?.querySelectorAll<HTMLDetailsElement>('details[open]') ?? []);
    const pointer = (e: PointerEvent) => {
      for (const menu of openMenus()) if (!menu.contains(e.target as Node)) menu.open = false;
    };
    const key = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      for (const menu of openMenus()) {
        const hadFocus = menu.contains(document.activeElement);
        menu.open = false;
        if (hadFocus) menu.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', pointer);
    document.addEventListener('keydown', key);
    return () => {
      document.removeEventListener('pointerdown', pointer);
      document.removeEventListener('keydown', key);
    };
  }, [container]);
}
