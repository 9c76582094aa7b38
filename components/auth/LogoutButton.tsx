'use client';

import { useEffect, useState } from 'react';

/** "Log out", shown only when this Hearth has a password and this browser is logged in. */
export function LogoutButton() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let live = true;
    fetch('/api/auth/session', { cache: 'no-store' })
      .then((r) => (r.ok ? (r.json() as Promise<{ required: boolean; loggedIn: boolean }>) : null))
      .then((s) => live && setShown(Boolean(s?.required && s.loggedIn)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (!shown) return null;
  return (
    <button
      type="button"
      data-testid="logout"
      className="mt-2 w-full rounded-md px-2 py-1 text-left text-sm text-stone-600 hover:bg-white dark:text-stone-400 dark:hover:bg-stone-800"
      onClick={() =>
        void fetch('/api/auth/logout', { method: 'POST', headers: { 'Content-Type': 'application/json' } }).finally(() =>
          window.location.assign('/login'),
        )
      }
    >
      Log out
    </button>
  );
}
