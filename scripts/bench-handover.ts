import { randomBytes } from 'node:crypto';
import { closeAll, follow, hasWords, twoProcesses, untilLeased, type Closing } from '@/lib/dev/testing/processes';

/**
 * A turn handed over between two Hearth processes on one PostgreSQL database (scripts/bench.ts,
 * with BENCH_DATABASE_URL): the time from the first process's end to the next event a page
 * following the turn through the second hears (the turn's "resumed").
 * - killed: the first dies (its writes stop, its connections close, as with SIGKILL on the
 *   database's machine); the second looks for turns to take over every half lease, as
 *   lib/services/startup.ts has it, so this is mostly the wait for its next look;
 * - SIGTERM: the first hands the turn over and says so; the second takes it at once.
 */

export type HandoverFigures = { killed: number[]; stopped: number[]; leaseMs: number };

async function once(url: string, leaseMs: number, how: 'killed' | 'stopped'): Promise<number> {
  const closing: Closing = [];
  try {
    let dead = false;
    const { first, second } = await twoProcesses(url, leaseMs, closing, { firstFrozen: () => dead });
    // The second looks for turns to take over as a running Hearth does (startup.ts), from a moment of its own.
    const sweeper = setInterval(() => void second.supervisor.takeOver(), leaseMs / 2);
    closing.push(async () => clearInterval(sweeper));
    const { turnId } = await first.supervisor.start({ threadId: 'th', content: `Explain closures (${randomBytes(3).toString('hex')}).` });
    const through = follow(second.supervisor, turnId);
    await through.until(hasWords('Half '));
    // The lease is held before the first goes (it is taken just after the turn starts).
    await untilLeased(second.store, turnId);
    const heardBefore = through.heard.length;
    const next = through.until((events) => events.length > heardBefore);
    const ended = performance.now();
    if (how === 'killed') {
      dead = true;
      first.supervisor.close();
      await first.signals.close();
    } else await first.supervisor.handOver();
    await next;
    const ms = performance.now() - ended;
    await through.done;
    return ms;
  } finally {
    await closeAll(closing);
  }
}

export async function measureHandover(url: string, { leaseMs = 10_000, runs = 5 } = {}): Promise<HandoverFigures> {
  const killed: number[] = [];
  const stopped: number[] = [];
  for (let i = 0; i < runs; i++) {
    killed.push(await once(url, leaseMs, 'killed'));
    stopped.push(await once(url, leaseMs, 'stopped'));
  }
  return { killed, stopped, leaseMs };
}
