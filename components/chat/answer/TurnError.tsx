'use client';

import { turnEnding } from '@/lib/client/error-text';

/** How the turn ended badly: what happened (the server's words when they are at hand) and the next step. */
export function TurnError({ code, message }: { code: string; message?: string }) {
  const ending = turnEnding(code);
  return (
    <div
      role="alert"
      data-testid="turn-error"
      data-code={code}
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      <p>{message ?? ending.what}</p>
      <p className="mt-1 text-xs" data-testid="turn-error-next">
        {ending.next}
        {ending.settings && (
          <>
            {' '}
            <a href="/settings" className="underline" data-testid="turn-error-settings">
              Open Settings
            </a>
          </>
        )}
      </p>
    </div>
  );
}
