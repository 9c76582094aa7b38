'use client';

import { useState } from 'react';
import { AuthCard, authInput, SignOnLink, SubmitRow, UsernameField } from './AuthCard';

/**
 * The login form: the username and password (the password alone while one person can log in).
 * On success the browser holds an httpOnly session cookie; the page moves on.
 */
export function LoginForm({
  next,
  askName = false,
  signOn,
  failed,
}: {
  next: string;
  askName?: boolean;
  /** Single sign-on's provider, when it is set up. */
  signOn?: string;
  /** Why a sign-on came back without a login. */
  failed?: string;
}) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(failed ?? null);
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
    <AuthCard id="login-title" title="Hearth" onSubmit={submit}>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        {askName ? 'Log in to see your conversations.' : 'This Hearth has a password. Enter it to see your conversations.'}
      </p>
      {signOn && (
        <SignOnLink href={`/api/auth/oidc/login?next=${encodeURIComponent(next)}`} label={`Sign in with ${signOn}`} testId="sign-on" />
      )}
      {askName && <UsernameField testId="login-username" value={username} onChange={setUsername} />}
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
          className={authInput}
        />
      </label>
      <SubmitRow
        error={error}
        errorTestId="login-error"
        disabled={busy || password === '' || (askName && username.trim() === '')}
        label={busy ? 'Logging in…' : 'Log in'}
      />
    </AuthCard>
  );
}
