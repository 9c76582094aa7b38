'use client';

import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { SessionInfo } from '@/lib/contract/responses';

/** A browser named from its User-Agent, as a person would: "Firefox on Linux". */
function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'A browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}

/**
 * Settings → Your sessions: each browser logged in as you, when it began and from where, and
 * End for any but this one (a phone lost, a shared computer left logged in).
 */
export function Sessions() {
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api
      .listSessions()
      .then((r) => setSessions(r.sessions))
      .catch((err: Error) => setError(err.message));
  useEffect(() => {
    void load();
  }, []);
  if (error)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-300">
        {error}
      </p>
    );
  if (!sessions) return <p className="text-sm text-stone-600 dark:text-stone-400">Loading…</p>;
  return (
    <ul className="space-y-2" data-testid="sessions">
      {sessions.map((s) => (
        <li key={s.id} data-testid="session" className="flex items-center gap-3 text-sm">
          <span className="min-w-0 flex-1">
            {browserOf(s.userAgent)}
            {s.address && s.address !== 'unknown' ? `, ${s.address}` : ''} · since {new Date(s.createdAt).toLocaleString()}
            {s.current && (
              <span className="ml-2 rounded bg-emerald-100 px-1.5 text-xs text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">
                this browser
              </span>
            )}
          </span>
          {!s.current && (
            <button
              type="button"
              data-testid="end-session"
              className="rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white dark:border-stone-700 dark:hover:bg-stone-800"
              onClick={() =>
                void api
                  .endSession(s.id)
                  .then(load)
                  .catch((err: Error) => setError(err.message))
              }
            >
              End
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
