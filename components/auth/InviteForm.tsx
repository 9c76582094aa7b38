'use client';

import { useState } from 'react';
import { AuthCard, authInput, SignOnLink, SubmitRow, UsernameField } from './AuthCard';
import { api } from '@/lib/client/api';
import type { Role } from '@/lib/contract/statuses';

/** Joining a Hearth with an invitation: a name and a password; then the chats open, logged in. */
export function InviteForm({ token, role, signOn }: { token: string; role: Role | null; signOn?: string }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.acceptInvite(token, { username, password });
      window.location.assign('/');
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <AuthCard id="invite-title" title="Join Hearth" onSubmit={submit}>
      {role === null ? (
        <p role="alert" data-testid="invite-closed" className="text-sm text-stone-700 dark:text-stone-300">
          This invitation has been used or has expired. Ask whoever sent it for a new one.
        </p>
      ) : (
        <>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            You are invited as {role === 'member' ? 'a member' : `an ${role}`}. Choose the name you will log in with and a password (at
            least 8 characters). Your conversations, files and memory will be yours alone.
          </p>
          {signOn && (
            <SignOnLink
              href={`/api/auth/oidc/login?invite=${encodeURIComponent(token)}`}
              label={`Join with ${signOn}`}
              testId="join-sign-on"
            />
          )}
          <UsernameField testId="invite-username" value={username} onChange={setUsername} />
          <label className="block text-sm font-medium text-stone-800 dark:text-stone-200">
            Password
            <input
              type="password"
              data-testid="invite-password"
              autoComplete="new-password"
              required
              minLength={8}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className={authInput}
            />
          </label>
          <SubmitRow
            error={error}
            errorTestId="invite-error"
            disabled={busy || !username.trim() || password.length < 8}
            label={busy ? 'Joining…' : 'Join'}
          />
        </>
      )}
    </AuthCard>
  );
}
