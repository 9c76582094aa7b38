'use client';

import { useState } from 'react';

/**
 * The login form: the username and password (the password alone while one person can log in).
 * On success the browser holds an httpOnly session cookie; the page moves on.
 */
export function LoginForm({ next, askName = false }: { next: string; askName?: boolean }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(askName ? { username, password } : { password }),
      });
      if (res.ok) {
        window.location.assign(next);
        return;
      }
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      setError(body?.error?.message ?? `Logging in failed (HTTP ${res.status}).`);
    } catch {
      setError('Hearth could not be reached.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="flex h-full items-center justify-center bg-stone-50 p-4 dark:bg-stone-950">
      <form
        onSubmit={submit}
        className="w-full max-w-sm space-y-4 rounded-xl border border-stone-200 bg-white p-6 shadow-sm dark:border-stone-800 dark:bg-stone-900"
        aria-labelledby="login-title"
      >
        <h1 id="login-title" className="text-lg font-semibold text-stone-900 dark:text-stone-100">
          Hearth
        </h1>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {askName ? 'Log in to see your conversations.' : 'This Hearth has a password. Enter it to see your conversations.'}
        </p>
        {askName && (
          <label className="block text-sm font-medium text-stone-800 dark:text-stone-200">
            Username
            <input
              type="text"
              name="username"
              data-testid="login-username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              required
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              className="mt-1 block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-stone-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-100"
            />
          </label>
        )}
        <label className="block text-sm font-medium text-stone-800 dark:text-stone-200">
          Password
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            autoFocus={!askName}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="mt-1 block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-stone-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-100"
          />
        </label>
        {error && (
          <p role="alert" data-testid="login-error" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <button
          type="submit"
          disabled={busy || password === '' || (askName && username.trim() === '')}
          className="w-full rounded-md bg-amber-700 px-3 py-2 text-sm font-medium text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 disabled:opacity-50"
        >
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
