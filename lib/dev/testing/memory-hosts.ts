import type { HostStore } from '@/lib/tools/politeness';

/** An in-memory HostStore for tests: breaker boxes and request spend per host. */
export function memoryHosts(): HostStore & { boxes: Map<string, { until: number; reason: string }> } {
  const boxes = new Map<string, { until: number; reason: string }>();
  const spend: { host: string; at: number }[] = [];
  return {
    boxes,
    penaltyOf: ({ host }) => boxes.get(host),
    setPenalty: ({ host, until, reason }) => void boxes.set(host, { until, reason }),
    clearPenalty: ({ host }) => void boxes.delete(host),
    recordSpend: (s) => void spend.push(s),
    spendSince: ({ host, since }) => spend.filter((s) => s.host === host && s.at >= since).map((s) => s.at),
    pruneSpend: () => undefined,
  };
}
