import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '@/db/client';
import { createStore } from '@/db/store';
import { describeText } from '@/lib/data/files/receive';
import { FileStore } from '@/lib/data/file-store';
import { parseConfig } from '@/lib/shared/config';
import type { TurnEvent } from '@/lib/contract/events';
import { createLlamaClient } from '@/lib/models/client';
import type { ChatResult, ModelClient } from '@/lib/models/types';
import { buildRuntime } from '@/lib/services/runtime';
import type { Scenario } from './scenario';
import { FIXED_NOW, plantedLog, type Standins } from './standins';

/**
 * One scenario, once, against one model server, through the real engine: the same runtime the
 * chat builds (turn supervisor, gate, tools, context), on a fresh temporary database, with the
 * stand-ins as its web and a clock that starts at FIXED_NOW. Every model call is recorded on
 * the way through (tokens, timings, time to first token); nothing about the turn is changed.
 */

export type ServerUnderTest = { name: string; url: string; apiKey?: string };

export type CallRecord = {
  lane: string;
  ms: number;
  /** Time to the first streamed word, for streamed calls. */
  firstTokenMs?: number;
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  predictedPerSecond?: number;
  failed?: string;
};

export type TurnRecord = {
  question: string;
  events: (TurnEvent & { seq: number })[];
  answer: string;
  ended: 'done' | 'error';
  errorCode?: string;
  ttftMs?: number;
  ms: number;
};

export type RunRecord = {
  scenario: string;
  model: string;
  repeat: number;
  modelId?: string;
  turns: TurnRecord[];
  calls: CallRecord[];
  /** Prompt tokens the server counted, and those it found cached, from /metrics (when it has --metrics). */
  metrics?: { promptTokens: number; cachedTokens: number };
  wallMs: number;
};

/** A model client that records every call and passes it on unchanged. */
function recording(client: ModelClient, calls: CallRecord[]): ModelClient {
  return {
    health: () => client.health(),
    async chat(request, options) {
      const t0 = performance.now();
      let first: number | undefined;
      const onDelta = options?.onDelta;
      const record: CallRecord = { lane: request.lane ?? 'conversation', ms: 0, promptTokens: 0, completionTokens: 0 };
      calls.push(record);
      let result: ChatResult;
      try {
        result = await client.chat(request, {
          ...options,
          onDelta: onDelta
            ? (text) => {
                first ??= performance.now() - t0;
                onDelta(text);
              }
            : undefined,
        });
      } catch (err) {
        record.failed = (err as Error).message.slice(0, 200);
        record.ms = performance.now() - t0;
        throw err;
      }
      Object.assign(record, {
        ms: performance.now() - t0,
        firstTokenMs: first,
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        cachedTokens: result.usage.cachedTokens ?? result.timings?.cachedTokens,
        predictedPerSecond: result.timings?.predictedPerSecond,
      });
      return result;
    },
  };
}

async function metricsOf(url: string): Promise<{ promptTokens: number; cachedTokens: number } | undefined> {
  try {
    const res = await fetch(new URL('/metrics', url.replace(/\/v1\/?$/, '/')), { signal: AbortSignal.timeout(3000) });
    if (!res.ok) return undefined;
    const text = await res.text();
    const counter = (name: string) => Number(new RegExp(`^llamacpp:${name} (\\d+(?:\\.\\d+)?)$`, 'm').exec(text)?.[1] ?? NaN);
    const promptTokens = counter('prompt_tokens_total');
    const cachedTokens = counter('prompt_tokens_cached_total');
    return Number.isFinite(promptTokens) ? { promptTokens, cachedTokens: Number.isFinite(cachedTokens) ? cachedTokens : 0 } : undefined;
  } catch {
    return undefined;
  }
}

const fill = (text: string, standins: Standins) => text.replaceAll('{{pages}}', standins.pagesUrl);

export async function runScenario(args: {
  server: ServerUnderTest;
  scenario: Scenario;
  standins: Standins;
  repeat: number;
  dataDir: string;
  /** Tests hand in a scripted model; by default the server's own (through the openai client, as the chat). */
  client?: ModelClient;
}): Promise<RunRecord> {
  const { server, scenario, standins } = args;
  const started = performance.now();
  const startedAt = Date.now();
  const config = parseConfig({
    LLAMA_URL: server.url,
    LLAMA_API_KEY: server.apiKey ?? '',
    SEARXNG_URL: scenario.tools.webSearch ? standins.searchUrl : '',
    DATA_DIR: args.dataDir,
    HEARTH_TIMEZONE: 'UTC',
    HEARTH_TITLES: 'first-words',
    FETCH_ALLOWED_PORTS: `80,443,${standins.pagesPort}`,
  });
  const calls: CallRecord[] = [];
  const client =
    args.client ??
    createLlamaClient({
      baseURL: config.LLAMA_URL[0],
      timeoutMs: config.MODEL_TIMEOUT_MS,
      connectTimeoutMs: config.MODEL_CONNECT_TIMEOUT_MS,
      firstByteTimeoutMs: config.MODEL_FIRST_BYTE_TIMEOUT_MS,
      apiKey: config.LLAMA_API_KEY,
    });
  const store = createStore(openDatabase(path.join(args.dataDir, 'hearth.db')));
  const runtime = await buildRuntime(config, store, {
    model: recording(client, calls),
    // The clock starts at FIXED_NOW and runs on, so durations stay true.
    now: () => FIXED_NOW + (Date.now() - startedAt),
    allowAddress: (address) => address === '127.0.0.1',
    withoutTools: scenario.tools.off,
  });
  const before = await metricsOf(server.url);
  try {
    for (const text of scenario.memory) await store.insertMemory({ id: randomUUID(), text, now: FIXED_NOW });
    const files = FileStore.of(config.DATA_DIR);
    const attachmentIds: string[] = [];
    for (const a of scenario.attachments) {
      const text = 'text' in a ? a.text : plantedLog();
      const sha256 = createHash('sha256').update(text).digest('hex');
      files.write(sha256, text);
      const { prefix, chars, lines } = describeText(text);
      attachmentIds.push(
        (
          await store.insertAttachment({
            id: randomUUID(),
            name: a.name,
            mime: 'text/plain',
            size: Buffer.byteLength(text),
            sha256,
            text: prefix,
            kind: 'text',
            chars,
            lines,
            now: FIXED_NOW,
          })
        ).id,
      );
    }
    const thread = await store.createThread({ id: randomUUID(), title: scenario.title, now: FIXED_NOW });
    const turns: TurnRecord[] = [];
    for (const [i, message] of scenario.messages.entries()) {
      const question = fill(message, standins);
      const t0 = performance.now();
      let ttft: number | undefined;
      const { turnId } = await runtime.turns.start({ threadId: thread.id, content: question, attachmentIds: i === 0 ? attachmentIds : [] });
      const events: (TurnEvent & { seq: number })[] = [];
      await runtime.turns.follow(turnId, (e) => {
        if (e.type === 'delta') ttft ??= performance.now() - t0;
        events.push(e);
      });
      events.sort((a, b) => a.seq - b.seq);
      const end = events.findLast((e) => e.type === 'done' || e.type === 'error');
      const answer = (events.findLast((e) => e.type === 'message') as { content?: string } | undefined)?.content ?? '';
      turns.push({
        question,
        events,
        answer,
        ended: end?.type === 'done' ? 'done' : 'error',
        errorCode: end?.type === 'error' ? end.code : undefined,
        ttftMs: ttft,
        ms: performance.now() - t0,
      });
    }
    await runtime.turns.backgroundIdle();
    const after = await metricsOf(server.url);
    return {
      scenario: scenario.id,
      model: server.name,
      repeat: args.repeat,
      modelId: runtime.models.status[0]?.id,
      turns,
      calls,
      ...(before && after
        ? { metrics: { promptTokens: after.promptTokens - before.promptTokens, cachedTokens: after.cachedTokens - before.cachedTokens } }
        : {}),
      wallMs: performance.now() - started,
    };
  } finally {
    runtime.models.close();
    store.db.$client.close();
  }
}
