'use client';

import { useEffect, useState } from 'react';

/** "Log out", with who is logged in, shown only when this Hearth has accounts and this browser is logged in. */
export function LogoutButton() {
  const [me, setMe] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetch('/api/auth/session', { cache: 'no-store' })
      .then((r) => (r.ok ? (r.json() as Promise<{ required: boolean; loggedIn: boolean; person?: { username: string } }>) : null))
      .then((s) => live && setMe(s?.required && s.loggedIn ? (s.person?.username ?? '') : null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (me === null) return null;
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
      Log out{me ? <span data-testid="logged-in-as"> ({me})</span> : null}
    </button>
  );
}
