/**
 * The time a turn spends in checks, for `npm run bench`: research turns (a deferral set aside,
 * a search, a checked answer) on a large conversation model, with the checks (freshness,
 * verdict) on that same model, and then on a small checks model (Settings' checks model). The
 * double plays a router with two models at the speeds such models run at on one consumer GPU
 * (simulated: each uncached prompt token and each generated token takes its time), so the
 * difference is the checks' share of a turn, not Hearth's own cost. Checks time is the sum of
 * the turn's decide-step calls as the server served them.
 *
 * It also measures what the verdict on every answer costs (measureVerdictCost).
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
import { parseConfig } from '../lib/shared/config';
import { buildRuntime } from '../lib/services/runtime';
import { makeTempDir } from '../lib/dev/testing/temp-dir';
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

/** A Hearth runtime over the double's two-model router, its checks on `checksModel` (none: the conversation model). */
async function withRuntime<T>(
  searxUrl: string,
  checksModel: string | undefined,
  body: (rt: Awaited<ReturnType<typeof buildRuntime>>, double: Awaited<ReturnType<typeof startLlamaDouble>>) => Promise<T>,
): Promise<T> {
  const double = await startLlamaDouble({ slots: 2, router: { models: [LARGE, SMALL].map((m) => ({ ...m, loaded: true })) } });
  const dir = makeTempDir('hearth-bench');
  const rt = await buildRuntime(
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
  try {
    await rt.models.ready();
    return await body(rt, double);
  } finally {
    rt.models.close();
    await double.close();
  }
}

/** One turn on the large model in a new thread: its requests to the double, and when its last answer token and its end came. */
async function oneTurn(
  rt: Awaited<ReturnType<typeof buildRuntime>>,
  double: Awaited<ReturnType<typeof startLlamaDouble>>,
  content: string,
) {
  const thread = await rt.store.createThread({ id: crypto.randomUUID(), title: '', now: Date.now() });
  await rt.store.updateThread({ id: thread.id, patch: { model: LARGE.id } });
  const seen = double.requests.length;
  const t0 = performance.now();
  let lastToken = t0;
  const { turnId } = await rt.turns.start({ threadId: thread.id, content });
  await rt.turns.follow(turnId, (e) => {
    if (e.type === 'delta') lastToken = performance.now();
  });
  const end = performance.now();
  return { requests: double.requests.slice(seen), ms: end - t0, tailMs: end - lastToken };
}

const isVerdict = (r: { schema: Record<string, unknown> | null }) =>
  Boolean(r.schema && 'verdict' in ((r.schema as { properties?: object }).properties ?? {}));

async function run(searxUrl: string, turns: number, checksModel: string | undefined): Promise<ChecksRun> {
  return withRuntime(searxUrl, checksModel, async (rt, double) => {
    const out: ChecksRun = { checksMs: [], turnMs: [], checks: [] };
    for (let i = 0; i < turns; i++) {
      const turn = await oneTurn(rt, double, 'What is the price of bitcoin today?');
      const checks = turn.requests.filter((r) => r.schema);
      out.turnMs.push(turn.ms);
      out.checksMs.push(checks.reduce((ms, r) => ms + (r.servedMs ?? 0), 0));
      out.checks.push(checks.length);
    }
    return out;
  });
}

/**
 * What the verdict on every answer costs (issue 51): over a mix of turns (an explanation, a
 * research question, a fact, a sum), the time from the answer's last token, which the page
 * already shows, to the turn's end (done), and the share of turns that spent a verdict call.
 */
export const VERDICT_MIX = [
  'Explain how tides work.',
  'What is the price of bitcoin today?',
  'Who wrote Middlemarch?',
  'What is 23 * 47 + 156?',
];
export type VerdictRun = { tailMs: number[]; verdictTurns: number; turns: number };
export type VerdictResult = { conversationModel: VerdictRun; checksModel: VerdictRun };

async function verdictRun(searxUrl: string, rounds: number, checksModel: string | undefined): Promise<VerdictRun> {
  return withRuntime(searxUrl, checksModel, async (rt, double) => {
    const out: VerdictRun = { tailMs: [], verdictTurns: 0, turns: 0 };
    for (let i = 0; i < rounds; i++) {
      for (const q of VERDICT_MIX) {
        const turn = await oneTurn(rt, double, q);
        out.tailMs.push(turn.tailMs);
        out.turns++;
        if (turn.requests.some(isVerdict)) out.verdictTurns++;
      }
    }
    return out;
  });
}

export async function measureVerdictCost(searxUrl: string, rounds = Number(process.env.BENCH_CHECKS_TURNS ?? 5)): Promise<VerdictResult> {
  return { conversationModel: await verdictRun(searxUrl, rounds, undefined), checksModel: await verdictRun(searxUrl, rounds, SMALL.id) };
}

export function describeVerdictCost(r: VerdictResult): string {
  const line = (label: string, x: VerdictRun) =>
    `  ${label.padEnd(34)} last answer token to done p50 ${pct(x.tailMs, 50).toFixed(0).padStart(5)} ms, p95 ${pct(x.tailMs, 95)
      .toFixed(0)
      .padStart(
        5,
      )} ms; turns with a verdict call ${x.verdictTurns}/${x.turns} (${((x.verdictTurns / Math.max(1, x.turns)) * 100).toFixed(0)}%)`;
  return [
    `the verdict on every answer, over ${VERDICT_MIX.length} kinds of turn on ${LARGE.id} (simulated GPU speeds):`,
    line(`verdict on ${LARGE.id}`, r.conversationModel),
    line(`verdict on ${SMALL.id} (checks model)`, r.checksModel),
  ].join('\n');
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
    console.log(describeVerdictCost(await measureVerdictCost(searx.url)));
  } finally {
    await searx.close();
  }
}
