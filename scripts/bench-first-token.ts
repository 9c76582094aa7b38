/**
 * Time to first token over 12-turn threads, for `npm run bench`: from starting a turn (the
 * question saved, the turn queued, its context put together, the round sent) to its first
 * streamed word, through Hearth, against the same round's request sent straight to the double
 * (its first content chunk). Over BENCH_FIRST_TOKEN_THREADS threads (default 10), the first two
 * turns of each left out (they warm up the JIT and SQLite's pages). The double has two slots
 * (the conversation's and the side calls') and its /metrics, so the same turns also show how
 * much of each prompt the slot's cache already held.
 *
 * Run alone: `node --conditions=react-server --import tsx scripts/bench-first-token.ts`.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { openDatabase } from '../db/client';
import { createStore, type Store } from '../db/store';
import { startLlamaDouble } from '../e2e/double/llama-double';
import { startSearxDouble } from '../e2e/double/searxng-double';
import { parseConfig } from '../lib/shared/config';
import { buildHearth, buildRuntime } from '../lib/services/runtime';
import { makeTempDir } from '../lib/dev/testing/temp-dir';
import { isTitleRequest } from '../lib/turns/supervisor/titles';
import { pct } from './bench-library';

export const THREAD_TURNS = 12;

export type FirstTokenResult = {
  threads: number;
  /** ms from starting the turn to its first delta, through Hearth. */
  hearth: number[];
  /** ms from sending the same round's request to its first content chunk, straight to the double. */
  direct: number[];
  /** Share of each turn's first prompt the slot already held (turns after a thread's first). */
  firstCallReuse: number[];
  /** Model calls of each turn answered without tools. */
  callsPerPlainTurn: number[];
  /** Per turn answered without tools: 1 when no verdict call was made (the classifier read it as clearly an answer), else 0. */
  withoutVerdict: number[];
  /** Share of all prompt tokens served from the cache (the double's /metrics). */
  fromCache: number;
};

/** The first streamed content of an SSE body, timed from `t0`. */
async function firstContentMs(res: Response, t0: number): Promise<number> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let first = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return first;
    text += decoder.decode(value, { stream: true });
    if (!first && /"content":"[^"]/.test(text)) first = performance.now() - t0;
  }
}

export async function measureFirstToken(
  searxUrl: string,
  threads = Number(process.env.BENCH_FIRST_TOKEN_THREADS ?? 10),
  /** The library to run the turns over: a new SQLite file by default. */
  store?: Store,
): Promise<FirstTokenResult> {
  const double = await startLlamaDouble({ slots: 2, metrics: true });
  const dir = makeTempDir('hearth-bench');
  const hearth = await buildHearth(
    parseConfig({ LLAMA_URL: double.url, SEARXNG_URL: searxUrl, DATA_DIR: dir, HEARTH_TIMEZONE: 'UTC' }),
    store ?? createStore(openDatabase(path.join(dir, 'hearth.db'))),
  );
  const rt = await hearth.as(await hearth.auth.owner());
  const result: FirstTokenResult = {
    threads,
    hearth: [],
    direct: [],
    firstCallReuse: [],
    callsPerPlainTurn: [],
    withoutVerdict: [],
    fromCache: 0,
  };
  try {
    await rt.models.ready();
    await rt.store.insertMemory({ id: crypto.randomUUID(), text: 'I like short answers about the sea', now: Date.now() });
    for (let t = 0; t < threads; t++) {
      const thread = await rt.store.createThread({ id: crypto.randomUUID(), title: '', now: Date.now() });
      for (let i = 0; i < THREAD_TURNS; i++) {
        const seen = double.requests.length;
        const t0 = performance.now();
        let first = 0;
        const { turnId } = await rt.turns.start({ threadId: thread.id, content: `Tell me about the sea, part ${i + 1}.` });
        await rt.turns.follow(turnId, (e) => {
          if (e.type === 'delta' && !first) first = performance.now() - t0;
          if (e.type === 'done' && e.stats.toolCalls === 0) result.callsPerPlainTurn.push(e.stats.modelCalls);
        });
        const turnCalls = double.requests.slice(seen);
        if (!turnCalls.some((r) => !r.schema && r.messages.some((m) => m.role === 'tool')))
          result.withoutVerdict.push(
            turnCalls.some((r) => r.schema && 'verdict' in ((r.schema as { properties?: object }).properties ?? {})) ? 0 : 1,
          );
        const round = turnCalls.find((r) => !r.schema && !isTitleRequest(r))!;
        // The same request, straight to the server: time to its first content chunk.
        const d0 = performance.now();
        const res = await fetch(`${double.url}/chat/completions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(round.body),
        });
        const direct = await firstContentMs(res, d0);
        if (i >= 2) {
          result.hearth.push(first);
          result.direct.push(direct);
        }
        if (i >= 1 && round.cache) result.firstCallReuse.push(round.cache.cached / round.cache.promptTokens);
      }
    }
    const metrics = await (await fetch(`${double.baseUrl}/metrics`)).text();
    const counter = (name: string) => Number(new RegExp(`^llamacpp:${name} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0);
    const cachedTokens = counter('prompt_tokens_cached_total');
    result.fromCache = cachedTokens / Math.max(1, cachedTokens + counter('prompt_tokens_total'));
    await rt.turns.backgroundIdle();
    return result;
  } finally {
    rt.models.close();
    // On PostgreSQL: its link to other processes, before the bench drops the database.
    await hearth.signals?.close();
    await double.close();
  }
}

export const THINKING_TURNS = 5;

export type ThinkingResult = {
  threads: number;
  /** ms from starting the turn to its first thinking token, and to its first answer token. */
  firstThinking: number[];
  firstAnswer: number[];
  /** Each turn's first call after a thread's first: the share of its prompt the slot held. */
  promptReuse: number[];
  /** The same calls: the share of what the slot held after the previous turn (its prompt, thinking and answer) that was reused. */
  previousReuse: number[];
};

/**
 * A thinking model (the double as Qwen3 with llama-server v0.5.0: reasoning_content before the
 * answer, and a template that renders an answer's thinking only within its own turn): times to
 * the first thinking token and the first answer token, and prompt-cache reuse over five-turn
 * threads.
 */
export async function measureThinking(
  searxUrl: string,
  threads = Number(process.env.BENCH_THINKING_THREADS ?? 4),
): Promise<ThinkingResult> {
  const double = await startLlamaDouble({ slots: 2, metrics: true, thinking: true });
  const dir = makeTempDir('hearth-bench');
  const rt = await buildRuntime(
    parseConfig({ LLAMA_URL: double.url, SEARXNG_URL: searxUrl, DATA_DIR: dir, HEARTH_TIMEZONE: 'UTC' }),
    createStore(openDatabase(path.join(dir, 'hearth.db'))),
  );
  const result: ThinkingResult = { threads, firstThinking: [], firstAnswer: [], promptReuse: [], previousReuse: [] };
  try {
    await rt.models.ready();
    for (let t = 0; t < threads; t++) {
      const thread = await rt.store.createThread({ id: crypto.randomUUID(), title: '', now: Date.now() });
      let heldBefore = 0;
      for (let i = 0; i < THINKING_TURNS; i++) {
        const seen = double.requests.length;
        const t0 = performance.now();
        let thinking = 0;
        let answer = 0;
        const { turnId } = await rt.turns.start({ threadId: thread.id, content: `Tell me about the sea, part ${i + 1}.` });
        await rt.turns.follow(turnId, (e) => {
          if (e.type === 'thinking' && !thinking) thinking = performance.now() - t0;
          if (e.type === 'delta' && !answer) answer = performance.now() - t0;
        });
        await rt.turns.backgroundIdle();
        const round = double.requests.slice(seen).find((r) => !r.schema && !isTitleRequest(r))!;
        if (i >= 1) {
          result.firstThinking.push(thinking);
          result.firstAnswer.push(answer);
        }
        if (i >= 1 && round.cache) {
          result.promptReuse.push(round.cache.cached / round.cache.promptTokens);
          if (heldBefore) result.previousReuse.push(round.cache.cached / heldBefore);
        }
        heldBefore = round.cache ? double.slots.held(round.cache.slot) : 0;
      }
    }
    return result;
  } finally {
    rt.models.close();
    await double.close();
  }
}

export function describeThinking(r: ThinkingResult): string {
  const p = (v: number) => `${(v * 100).toFixed(1)}%`;
  return (
    `thinking model over ${r.threads} threads of ${THINKING_TURNS} turns: first thinking token p50 ${pct(r.firstThinking, 50).toFixed(1)} ms, ` +
    `first answer token p50 ${pct(r.firstAnswer, 50).toFixed(1)} ms; each turn's first call found ${p(pct(r.promptReuse, 50))} of its prompt in the slot ` +
    `(min ${p(Math.min(...r.promptReuse))}), and reused ${p(pct(r.previousReuse, 50))} of what the slot held after the previous turn ` +
    `(min ${p(Math.min(...r.previousReuse))}): the template drops an earlier answer's thinking, so the slot's copy of that answer is read again`
  );
}

export function describeFirstToken(r: FirstTokenResult): string {
  const hearth = pct(r.hearth, 50);
  const direct = pct(r.direct, 50);
  return (
    `time to first token over ${r.threads} threads of ${THREAD_TURNS} turns (${r.hearth.length} turns): through Hearth p50 ${hearth.toFixed(1)} ms, ` +
    `p95 ${pct(r.hearth, 95).toFixed(1)} ms; straight to the server p50 ${direct.toFixed(1)} ms, p95 ${pct(r.direct, 95).toFixed(1)} ms; ` +
    `Hearth adds ${(hearth - direct).toFixed(1)} ms at p50 (target <= 3)`
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const searx = await startSearxDouble();
  const r = await measureFirstToken(searx.url);
  console.log(describeFirstToken(r));
  console.log(describeThinking(await measureThinking(searx.url)));
  await searx.close();
  process.exit(0);
}
