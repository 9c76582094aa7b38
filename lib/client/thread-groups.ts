/**
 * The sidebar's groups: pinned threads first, then by when each was last active, in the
 * browser's own days: today, yesterday, the previous 7 days, older. The list comes newest first
 * (GET /api/threads), and each group keeps that order.
 */

export type ThreadGroup<T> = { label: string; threads: T[] };

const DAY = 24 * 60 * 60 * 1000;

/** Midnight of the day `at` falls on, in the local timezone. */
function startOfDay(at: number): number {
  const d = new Date(at);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

export function groupThreads<T extends { pinned: boolean; updatedAt: number }>(threads: readonly T[], now: number): ThreadGroup<T>[] {
  const today = startOfDay(now);
  // Yesterday's midnight by the calendar, not 24 hours back (a day may have 23 or 25 hours).
  const yesterday = startOfDay(today - DAY / 2);
  const weekAgo = startOfDay(today - 7 * DAY + DAY / 2);
  const groups: ThreadGroup<T>[] = [
    { label: 'Pinned', threads: [] },
    { label: 'Today', threads: [] },
    { label: 'Yesterday', threads: [] },
    { label: 'Previous 7 days', threads: [] },
    { label: 'Older', threads: [] },
  ];
  for (const t of threads) {
    const g = t.pinned ? 0 : t.updatedAt >= today ? 1 : t.updatedAt >= yesterday ? 2 : t.updatedAt >= weekAgo ? 3 : 4;
    groups[g].threads.push(t);
  }
  return groups.filter((g) => g.threads.length > 0);
}
