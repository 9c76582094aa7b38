import type { ClusterSignal, Signals } from '@/lib/contract/cluster-signals';

/**
 * Several processes' signals (lib/contract/cluster-signals.ts) within one test: what one sends,
 * the others hear, on a later turn of the event loop as over PostgreSQL's NOTIFY, never the
 * sender itself. `tell` makes a process hear a signal as if sent (a resync after a lost link).
 */
export function signalBus() {
  const members = new Map<string, Map<string, Set<(signal: ClusterSignal) => void>>>();
  const deliver = (to: string, signal: ClusterSignal) => {
    for (const handler of members.get(to)?.get(signal.library) ?? []) handler(signal);
  };
  /** `clockOffsetMs`: how far the database's clock is ahead of this process's machine's (one whose clock is wrong). */
  const join = (process: string, { clockOffsetMs = 0 }: { clockOffsetMs?: number } = {}): Signals => {
    const handlers = new Map<string, Set<(signal: ClusterSignal) => void>>();
    members.set(process, handlers);
    return {
      process,
      send(signal) {
        if (!members.has(process)) return;
        for (const other of members.keys()) if (other !== process) setImmediate(() => deliver(other, signal));
      },
      listen(library, handler) {
        const set = handlers.get(library) ?? new Set();
        handlers.set(library, set);
        set.add(handler);
        return () => set.delete(handler);
      },
      livingProcesses: async () => [...members.keys()],
      clockOffsetMs: () => clockOffsetMs,
      close: async () => void members.delete(process),
    };
  };
  return { join, tell: (process: string, signal: ClusterSignal) => deliver(process, signal) };
}
