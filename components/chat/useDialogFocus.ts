'use client';

import { useEffect, useRef } from 'react';

/**
 * A dialog's close button: focused when the dialog opens, Esc closes the dialog, and focus goes
 * back to what opened it once it closes (a keyboard user stays where they were). Returns the button's ref.
 */
export function useDialogFocus(onClose: () => void) {
  const close = useRef<HTMLButtonElement | null>(null);
  // The latest onClose, so a parent passing a new function each render does not re-open the dialog's focus.
  const latest = useRef(onClose);
  useEffect(() => {
    latest.current = onClose;
  }, [onClose]);
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && latest.current();
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return close;
}
