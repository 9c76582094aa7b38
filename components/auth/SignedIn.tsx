'use client';

import { useEffect } from 'react';

/** Signed in: on to `next` at once (a link too, should the page be kept from moving). */
export function SignedIn({ next }: { next: string }) {
  useEffect(() => window.location.replace(next), [next]);
  return (
    <main className="flex min-h-dvh items-center justify-center p-4 text-sm">
      <p>
        Signed in.{' '}
        <a href={next} className="underline" data-testid="signed-in-next">
          Go on
        </a>
        .
      </p>
    </main>
  );
}
