'use client';

import Link from 'next/link';
import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { PeopleView, PersonInfo, UsageView } from '@/lib/contract/responses';
import { UsageTable } from '@/components/UsageTable';
import { roles, type Role } from '@/lib/contract/statuses';

const button =
  'rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800';
const select = 'rounded-md border border-stone-300 bg-white px-2 py-1 text-sm dark:border-stone-700 dark:bg-stone-900';
const day = (t: number) => new Date(t).toLocaleDateString();

/**
 * The admin page: who may use this Hearth (their role, whether they may log in, removing them)
 * and invitations, each a link that makes one account, once, within a week. For the owner and
 * admins; only an owner changes an owner or makes one (the server holds to that, the page says it).
 */
export function PeoplePage() {
  const [view, setView] = useState<PeopleView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [inviteRole, setInviteRole] = useState<Role>('member');
  const [link, setLink] = useState<string | null>(null);
  /** Whether the asker is an owner: only an owner exports another person's library. */
  const [owner, setOwner] = useState(false);
  const load = () =>
    api
      .listPeople()
      .then((v) => {
        setView(v);
        setError(null);
      })
      .catch((err: Error) => setError(err.message));
  useEffect(() => {
    void load();
    api
      .session()
      .then((s) => setOwner(s.person?.role === 'owner'))
      .catch(() => undefined);
  }, []);
  /** Everyone's usage, for the owner. */
  const [usage, setUsage] = useState<UsageView | null>(null);
  useEffect(() => {
    if (owner)
      api
        .everyonesUsage()
        .then(setUsage)
        .catch((err: Error) => setError(err.message));
  }, [owner]);
  /** A change, then the list again; a refusal is said. */
  const change = (p: Promise<unknown>) => void p.then(load).catch((err: Error) => setError(err.message));

  return (
    <main className="mx-auto max-w-3xl space-y-6 p-4 sm:p-6">
      <header className="flex items-center gap-3">
        <Link href="/settings" className="text-sm underline">
          ← Settings
        </Link>
        <h1 className="text-xl font-semibold">People</h1>
      </header>
      {error && (
        <p role="alert" data-testid="people-error" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {view && (
        <>
          <section className="space-y-2">
            <h2 className="font-medium">Who uses this Hearth</h2>
            <ul className="divide-y divide-stone-200 dark:divide-stone-800" data-testid="people">
              {view.people.map((p) => (
                <li key={p.id} data-testid="person" data-username={p.username} className="flex flex-wrap items-center gap-3 py-2 text-sm">
                  <span className="min-w-0 flex-1">
                    <span className="font-medium">{p.username}</span>
                    <span className="ml-2 text-stone-500">since {day(p.createdAt)}</span>
                    {p.disabled && <span className="ml-2 rounded bg-stone-200 px-1.5 text-xs dark:bg-stone-800">disabled</span>}
                  </span>
                  <select
                    aria-label={`Role of ${p.username}`}
                    data-testid="person-role"
                    className={select}
                    value={p.role}
                    onChange={(e) => change(api.patchPerson(p.id, { role: e.target.value as Role }))}
                  >
                    {roles.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    data-testid="person-disable"
                    className={button}
                    onClick={() => change(api.patchPerson(p.id, { disabled: !p.disabled }))}
                  >
                    {p.disabled ? 'Enable' : 'Disable'}
                  </button>
                  <Limit
                    person={p}
                    which="turnsPerDay"
                    label="turns a day"
                    owner={owner}
                    onChange={(v) => change(api.patchPerson(p.id, v))}
                  />
                  <Limit
                    person={p}
                    which="fuelPerTurn"
                    label="fuel a turn"
                    owner={owner}
                    onChange={(v) => change(api.patchPerson(p.id, v))}
                  />
                  {owner && (
                    <a
                      href={`/api/people/${p.id}/export`}
                      download
                      className={button}
                      data-testid="person-export"
                      title={`Download ${p.username}'s library file`}
                    >
                      Export
                    </a>
                  )}
                  <button
                    type="button"
                    data-testid="person-remove"
                    className={button}
                    onClick={() => {
                      if (window.confirm(`Remove ${p.username}? They are logged out at once; their library stays on disk.`))
                        change(api.removePerson(p.id));
                    }}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
            <p className="text-xs text-stone-600 dark:text-stone-400">
              An owner may do everything; an admin changes the shared settings and the people (but not an owner); a member uses Hearth with
              their own library. Disabling or removing someone ends their sessions at once. Limits: how many turns someone may begin in a
              day (in this Hearth&apos;s timezone) and the most fuel one of their turns may burn, below the turn budget of Settings; empty:
              no limit of their own.
            </p>
          </section>

          {owner && usage && (
            <section className="space-y-2">
              <h2 className="font-medium">Usage</h2>
              <p className="text-xs text-stone-600 dark:text-stone-400">
                What everyone&apos;s turns used of the model servers in the last 30 days, by day and model.
              </p>
              <UsageTable lines={usage.lines} people csv="/api/people/usage/csv" />
            </section>
          )}

          <section className="space-y-2">
            <h2 className="font-medium">Invite someone</h2>
            <div className="flex flex-wrap items-center gap-2">
              <select
                aria-label="Role of the invited person"
                className={select}
                value={inviteRole}
                onChange={(e) => setInviteRole(e.target.value as Role)}
              >
                {roles.map((r) => (
                  <option key={r} value={r}>
                    as {r}
                  </option>
                ))}
              </select>
              <button
                type="button"
                data-testid="make-invite"
                className={button}
                onClick={() =>
                  void api
                    .createInvite(inviteRole)
                    .then((made) => {
                      setLink(`${window.location.origin}${made.path}`);
                      return load();
                    })
                    .catch((err: Error) => setError(err.message))
                }
              >
                Make an invitation link
              </button>
            </div>
            {link && (
              <p className="text-sm">
                Send this link (it works once, for a week; it is shown only now):{' '}
                <code data-testid="invite-link" className="break-all rounded bg-stone-100 px-1 dark:bg-stone-800">
                  {link}
                </code>{' '}
                <button type="button" className={button} onClick={() => void navigator.clipboard?.writeText(link)}>
                  Copy
                </button>
              </p>
            )}
            {view.invites.length > 0 && (
              <ul className="space-y-1 text-sm" data-testid="invites">
                {view.invites.map((i) => (
                  <li key={i.id} data-testid="invite" className="flex items-center gap-3">
                    <span className="flex-1">
                      An invitation as {i.role}, made {day(i.createdAt)}, works until {day(i.expiresAt)}
                    </span>
                    <button type="button" className={button} onClick={() => change(api.withdrawInvite(i.id))}>
                      Withdraw
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </main>
  );
}

/** A person's limit: a whole number, or empty for none; saved when the box is left (the owner's to set). */
function Limit({
  person,
  which,
  label,
  owner,
  onChange,
}: {
  person: PersonInfo;
  which: 'turnsPerDay' | 'fuelPerTurn';
  label: string;
  /** Only the owner sets limits; an admin sees them. */
  owner: boolean;
  onChange: (patch: { turnsPerDay?: number | null; fuelPerTurn?: number | null }) => void;
}) {
  const saved = person[which];
  const [text, setText] = useState(saved === null ? '' : String(saved));
  useEffect(() => setText(saved === null ? '' : String(saved)), [saved]);
  const save = () => {
    const value = text.trim() === '' ? null : Number(text);
    if (value === saved) return;
    onChange({ [which]: value });
  };
  return (
    <label className="flex items-center gap-1 text-xs text-stone-600 dark:text-stone-400">
      <input
        type="number"
        min={1}
        inputMode="numeric"
        aria-label={`${label} for ${person.username}`}
        data-testid={`person-${which}`}
        disabled={!owner}
        className={`${select} w-20`}
        value={text}
        placeholder="no limit"
        onChange={(e) => setText(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save();
        }}
      />
      {label}
    </label>
  );
}
