/**
 * The time a turn spends in checks, for `npm run bench`: research turns (a deferral set aside,
 * a search, a checked answer) on a large conversation model, with the checks (freshness,
 * verdict) on that same model, and then on a small checks model (Settings' checks model). The
 * double plays a router with two models at the speeds such models run at on one consumer GPU
 * (simulated: each uncached prompt token and each generated token takes its time), so the
 * difference is the checks' share of a turn, not Hearth's own cost. Checks time is the sum of
 * the turn's decide-step calls as the server served them.
 *
 * Run alone: `node --conditions=react-server --import tsx scripts/bench-checks.ts`.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../db/client';
import { createStore } from '../db/store';
import { startLlamaDouble } from '../e2e/double/llama-double';
import { startSearxDouble } from '../e2e/double/searxng-double';
import { parseConfig } from '../lib/config';
import { buildRuntime } from '../lib/server/runtime';
import { makeTempDir } from '../lib/testing/temp-dir';
import { pct } from './bench-library';

/** A dense 32B at Q4 and Qwen3-0.6B on one 24 GB GPU, roughly (prompt and generation tokens per second). */
export const LARGE = { id: 'qwen3-32b', speed: { promptPerSecond: 1_000, predictedPerSecond: 35 } };
export const SMALL = { id: 'qwen3-0.6b', speed: { promptPerSecond: 15_000, predictedPerSecond: 350 } };

export type ChecksRun = {
  /** ms per turn in decide-step calls, and the whole turn. */
  checksMs: number[];
  turnMs: number[];
  /** Decide-step calls per turn. */
  checks: number[];
};
export type ChecksResult = { without: ChecksRun; with: ChecksRun };

async function run(searxUrl: string, turns: number, checksModel: string | undefined): Promise<ChecksRun> {
  const double = await startLlamaDouble({ slots: 2, router: { models: [LARGE, SMALL].map((m) => ({ ...m, loaded: true })) } });
  const dir = makeTempDir('hearth-bench');
  const rt = buildRuntime(
    parseConfig({
      LLAMA_URL: double.url,
      SEARXNG_URL: searxUrl,
      DATA_DIR: dir,
      HEARTH_TIMEZONE: 'UTC',
      MODEL_SLOTS: '2',
      HEARTH_TITLES: 'first-words',
      ...(checksModel ? { HEARTH_CHECKS_MODEL: checksModel } : {}),
    }),
    createStore(openDatabase(path.join(dir, 'hearth.db'))),
  );
  const out: ChecksRun = { checksMs: [], turnMs: [], checks: [] };
  try {
    await rt.models.ready();
    for (let i = 0; i < turns; i++) {
      const thread = rt.store.createThread({ id: crypto.randomUUID(), title: '', now: Date.now() });
      rt.store.updateThread({ id: thread.id, patch: { model: LARGE.id } });
      const seen = double.requests.length;
      const t0 = performance.now();
      const { turnId } = rt.turns.start({ threadId: thread.id, content: 'What is the price of bitcoin today?' });
      await new Promise<void>((resolve) => {
        const sub = rt.turns.subscribe(turnId, 0, { event: () => undefined, end: resolve });
        if (!sub.live) resolve();
      });
      const checks = double.requests.slice(seen).filter((r) => r.schema);
      out.turnMs.push(performance.now() - t0);
      out.checksMs.push(checks.reduce((ms, r) => ms + (r.servedMs ?? 0), 0));
      out.checks.push(checks.length);
    }
    return out;
  } finally {
    rt.models.close();
    await double.close();
  }
}

export async function measureChecks(searxUrl: string, turns = Number(process.env.BENCH_CHECKS_TURNS ?? 5)): Promise<ChecksResult> {
  return { without: await run(searxUrl, turns, undefined), with: await run(searxUrl, turns, SMALL.id) };
}

export function describeChecks(r: ChecksResult): string {
  const line = (label: string, x: ChecksRun) =>
    `  ${label.padEnd(34)} checks p50 ${pct(x.checksMs, 50).toFixed(0).padStart(5)} ms (${pct(x.checks, 50)} calls), turn p50 ${pct(
      x.turnMs,
      50,
    )
      .toFixed(0)
      .padStart(5)} ms`;
  return [
    `checks per research turn on ${LARGE.id} (simulated GPU speeds; ${r.without.turnMs.length} turns each):`,
    line(`checks on ${LARGE.id}`, r.without),
    line(`checks on ${SMALL.id} (checks model)`, r.with),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const searx = await startSearxDouble();
  try {
    console.log(describeChecks(await measureChecks(searx.url)));
  } finally {
    await searx.close();
  }
}
