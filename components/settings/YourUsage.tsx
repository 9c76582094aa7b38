'use client';

import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { UsageView } from '@/lib/contract/responses';
import { UsageTable } from '@/components/UsageTable';

/** Settings → Your usage: the person's own, with the limits the owner set for them. */
export function YourUsage() {
  const [view, setView] = useState<UsageView | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .usage()
      .then(setView)
      .catch((err: Error) => setError(err.message));
  }, []);
  if (error) return <p role="alert">{error}</p>;
  if (!view) return <p className="text-sm">Loading…</p>;
  const { turnsPerDay, fuelPerTurn } = view.limits ?? { turnsPerDay: null, fuelPerTurn: null };
  return (
    <div className="space-y-2">
      {(turnsPerDay !== null || fuelPerTurn !== null) && (
        <p className="text-sm" data-testid="your-limits">
          This Hearth&apos;s owner set your limits:{' '}
          {[turnsPerDay !== null && `${turnsPerDay} turns a day`, fuelPerTurn !== null && `${fuelPerTurn} fuel a turn`]
            .filter(Boolean)
            .join(', ')}
          .
        </p>
      )}
      <UsageTable lines={view.lines} csv="/api/usage/csv" />
    </div>
  );
}
