import type { ReactNode } from 'react';

/** A text box of the login and invitation forms. */
export const authInput =
  'mt-1 block w-full rounded-md border border-stone-300 bg-white px-3 py-2 text-stone-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-100';

/** The card the login and invitation forms sit in, alone on the page. */
export function AuthCard({
  id,
  title,
  onSubmit,
  children,
}: {
  id: string;
  title: string;
  onSubmit: (e: React.FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <main className="flex h-full items-center justify-center bg-stone-50 p-4 dark:bg-stone-950">
      <form
        onSubmit={onSubmit}
        className="w-full max-w-sm space-y-4 rounded-xl border border-stone-200 bg-white p-6 shadow-sm dark:border-stone-800 dark:bg-stone-900"
        aria-labelledby={id}
      >
        <h1 id={id} className="text-lg font-semibold text-stone-900 dark:text-stone-100">
          {title}
        </h1>
        {children}
      </form>
    </main>
  );
}

/** The username box: typed as a name is, without capitals or spelling fixes. */
export function UsernameField({ testId, value, onChange }: { testId: string; value: string; onChange: (value: string) => void }) {
  return (
    <label className="block text-sm font-medium text-stone-800 dark:text-stone-200">
      Username
      <input
        type="text"
        name="username"
        data-testid={testId}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        autoFocus
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={authInput}
      />
    </label>
  );
}

/** The end of the form: why it failed, if it did, and its button. */
export function SubmitRow({
  error,
  errorTestId,
  disabled,
  label,
}: {
  error: string | null;
  errorTestId: string;
  disabled: boolean;
  label: string;
}) {
  return (
    <>
      {error && (
        <p role="alert" data-testid={errorTestId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={disabled}
        className="w-full rounded-md bg-amber-700 px-3 py-2 text-sm font-medium text-white hover:bg-amber-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 disabled:opacity-50"
      >
        {label}
      </button>
    </>
  );
}

/** "Sign in with …": single sign-on, a link the browser follows to the provider (lib/services/auth/oidc.ts). */
export function SignOnLink({ href, label, testId }: { href: string; label: string; testId: string }) {
  return (
    <>
      <a
        href={href}
        data-testid={testId}
        className="block w-full rounded-md border border-stone-300 px-3 py-2 text-center text-sm font-medium text-stone-800 hover:bg-white dark:border-stone-700 dark:text-stone-100 dark:hover:bg-stone-800"
      >
        {label}
      </a>
      <p className="text-center text-xs text-stone-500">or</p>
    </>
  );
}
