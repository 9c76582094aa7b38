'use client';

import { useEffect, useRef } from 'react';

/** A dialog's close button: focused when the dialog opens, and Esc closes the dialog. Returns the button's ref. */
export function useDialogFocus(onClose: () => void) {
  const close = useRef<HTMLButtonElement | null>(null);
  useEffect(() => {
    close.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return close;
}
