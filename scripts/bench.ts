/**
 * `npm run bench`: the engine's own cost against the llama-server double.
 *  - per turn: wall time from start to the final event, minus the time spent waiting on the
 *    model (every model call, streaming included), over plain turns and gated research turns;
 *  - per streamed token: the time Hearth spends handling one delta (markup holdback, event
 *    stored in SQLite, listeners notified).
 * Targets (issue 3): p50 ≤ 10 ms per turn, ≤ 1 ms per token.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLlamaDouble } from '../e2e/double/llama-double';
import { startSearxDouble } from '../e2e/double/searxng-double';
import { openDatabase } from '../db/client';
import { createStore } from '../db/store';
import { parseConfig } from '../lib/config';
import { createLlamaClient } from '../lib/llm/client';
import type { ModelClient } from '../lib/llm/types';
import { buildRuntime } from '../lib/server/runtime';
import { makeTempDir } from '../lib/testing/temp-dir';

const TURNS = Number(process.env.BENCH_TURNS ?? 40);

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

const double = await startLlamaDouble();
const searx = await startSearxDouble();
const dir = makeTempDir('hearth-bench');
const config = parseConfig({ LLAMA_URL: double.url, SEARXNG_URL: searx.url, DATA_DIR: dir, HEARTH_TIMEZONE: 'UTC', MODEL_SLOTS: '1' });
const store = createStore(openDatabase(path.join(dir, 'hearth.db')));

// Measure model waits and per-delta handling by wrapping the real client.
const real = createLlamaClient({ baseURL: config.LLAMA_URL[0], timeoutMs: 10_000 });
let modelMs = 0;
const tokenMs: number[] = [];
const model: ModelClient = {
  health: () => real.health(),
  async chat(request, options) {
    const onDelta = options?.onDelta;
    const t0 = performance.now();
    let handling = 0;
    try {
      return await real.chat(request, {
        signal: options?.signal,
        onDelta: onDelta
          ? (text) => {
              const h0 = performance.now();
              onDelta(text);
              const spent = performance.now() - h0;
              handling += spent;
              tokenMs.push(spent);
            }
          : undefined,
      });
    } finally {
      modelMs += performance.now() - t0 - handling;
    }
  },
};
const rt = buildRuntime(config, store, { model });

const questions = ['Explain how tides work.', 'What is the price of bitcoin today?', 'Tell me a short story about a lighthouse.'];
const perTurn: Record<string, number[]> = {};
for (let i = 0; i < TURNS + 3; i++) {
  const thread = store.createThread({ id: crypto.randomUUID(), title: '', now: Date.now() });
  const q = questions[i % questions.length];
  modelMs = 0;
  const t0 = performance.now();
  const { turnId } = rt.turns.start({ threadId: thread.id, content: q });
  await new Promise<void>((resolve) => {
    const sub = rt.turns.subscribe(turnId, 0, { event: () => undefined, end: resolve });
    if (!sub.live) resolve();
  });
  const engineMs = performance.now() - t0 - modelMs;
  if (i >= 3) (perTurn[q] ??= []).push(engineMs); // the first turns warm up the JIT and SQLite
}

const all = Object.values(perTurn).flat();
console.log(`Hearth engine bench: ${all.length} turns, ${tokenMs.length} streamed tokens (double on 127.0.0.1, SQLite in ${dir})`);
for (const [q, v] of Object.entries(perTurn)) {
  console.log(`  ${q.padEnd(45)} engine ms/turn p50 ${pct(v, 50).toFixed(2)}  p95 ${pct(v, 95).toFixed(2)}`);
}
const turnP50 = pct(all, 50);
const tokenP50 = pct(tokenMs, 50);
console.log(`engine time per turn: p50 ${turnP50.toFixed(2)} ms, p95 ${pct(all, 95).toFixed(2)} ms (target p50 <= 10 ms)`);
console.log(`engine time per streamed token: p50 ${tokenP50.toFixed(3)} ms, p95 ${pct(tokenMs, 95).toFixed(3)} ms (target p50 <= 1 ms)`);
console.log(`memory: rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
await double.close();
await searx.close();
process.exit(turnP50 <= 10 && tokenP50 <= 1 ? 0 : 1);
