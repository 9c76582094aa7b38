/**
 * The library at scale, for `npm run bench`: a generated library seeded straight into SQLite
 * (through the same triggers the app uses), then search latency measured with the queries a
 * person types; a 2,000-message thread opened; grep over a 200 MB log. Words follow a Zipf distribution over a 30,000-word vocabulary, so there are
 * rare words, everyday ones and a few very common ones, as in real text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SqliteStore, Store } from '../db/store';
import { searchLibrary, type SearchStore } from '../lib/data/search/search';
import { threadView } from '../lib/services/threads';
import { grepAttachmentTool } from '../lib/tools/attachments';

/** A small seeded PRNG (mulberry32), so every run searches the same library. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VOCABULARY = 30_000;
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'sto',
  'va',
  'dal',
  'qui',
  'ber',
  'nos',
  'tra',
  'el',
  'pu',
  'gor',
  'fin',
  'zu',
  'ham',
  'ci',
  'wel',
  'dro',
];

function vocabulary(): string[] {
  const words = new Set<string>();
  const r = rng(7);
  while (words.size < VOCABULARY) {
    const n = 1 + Math.floor(r() * 3);
    words.add(Array.from({ length: n + 1 }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

/** Zipf-distributed word indexes: rank k has weight 1/k. */
function zipf(r: () => number, n: number) {
  const harmonic = Math.log(n) + 0.5772;
  return () => {
    // Inverse of the continuous approximation of the Zipf CDF.
    const k = Math.floor(Math.exp(r() * harmonic)) - 1;
    return Math.min(n - 1, Math.max(0, k));
  };
}

export type SeedStats = { messages: number; threads: number; textBytes: number; seconds: number };

/** Adds `count` messages to the library, in threads of 40, spread over the last year. */
export function seedLibrary(store: SqliteStore, count: number, now: number, seed = 1): SeedStats {
  const words = vocabulary();
  const r = rng(seed);
  const pick = zipf(r, words.length);
  const sqlite = store.db.$client;
  const insertThread = sqlite.prepare(
    "INSERT INTO threads (id, title, system_prompt, pinned, created_at, updated_at) VALUES (?, ?, '', 0, ?, ?)",
  );
  const insertMessage = sqlite.prepare(
    "INSERT INTO messages (id, thread_id, turn_id, role, content, status, created_at) VALUES (?, ?, NULL, ?, ?, 'complete', ?)",
  );
  const t0 = performance.now();
  let textBytes = 0;
  let threads = 0;
  const year = 365 * 24 * 3600 * 1000;
  const batch = sqlite.transaction((from: number, to: number) => {
    let threadId = '';
    let at = 0;
    for (let i = from; i < to; i++) {
      if (i % 40 === 0) {
        threadId = `00000000-0000-4000-${seed.toString(16).slice(-4).padStart(4, '0')}-${String(threads++).padStart(12, '0')}`;
        at = now - Math.floor(r() * year);
        const title = Array.from({ length: 4 }, () => words[pick()]).join(' ');
        insertThread.run(threadId, title, at, at);
      }
      const length = 10 + Math.floor(r() * r() * 120);
      const content = Array.from({ length }, () => words[pick()]).join(' ');
      textBytes += Buffer.byteLength(content);
      insertMessage.run(`m-${seed}-${i}`, threadId, i % 2 ? 'assistant' : 'user', content, at + (i % 40) * 60_000);
    }
  });
  for (let i = 0; i < count; i += 10_000) batch(i, Math.min(count, i + 10_000));
  return { messages: count, threads, textBytes, seconds: (performance.now() - t0) / 1000 };
}

/** The queries a person types: rare and everyday words, two words, a word still being typed. */
export function benchQueries(): { label: string; queries: string[] }[] {
  const words = vocabulary();
  const r = rng(99);
  const at = (from: number, to: number) => words[from + Math.floor(r() * (to - from))];
  const many = (n: number, f: () => string) => Array.from({ length: n }, f);
  return [
    { label: 'one rare word', queries: many(40, () => at(5000, 30000)) },
    { label: 'one everyday word', queries: many(40, () => at(200, 2000)) },
    { label: 'two words', queries: many(40, () => `${at(100, 3000)} ${at(500, 10000)}`) },
    { label: 'typing, 3 letters', queries: many(40, () => `${at(300, 5000)} ${at(1000, 20000).slice(0, 3)}`) },
    { label: 'typing, 4-6 letters', queries: many(40, () => `${at(300, 5000)} ${at(1000, 20000).slice(0, 4 + Math.floor(r() * 3))}`) },
    { label: 'one very common word', queries: many(20, () => at(0, 20)) },
  ];
}

export function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}

/** Search latency per kind of query: p50 and p95 in ms, and hits found. */
export async function measureSearch(store: SearchStore, now: number) {
  const rows: { label: string; p50: number; p95: number; hits: number }[] = [];
  for (const { label, queries } of benchQueries()) {
    const times: number[] = [];
    let hits = 0;
    for (const q of queries) {
      const t0 = performance.now();
      hits += (await searchLibrary(store, { query: q, limit: 20, now })).length;
      times.push(performance.now() - t0);
    }
    rows.push({ label, p50: pct(times, 50), p95: pct(times, 95), hits: hits / queries.length });
  }
  return rows;
}

/**
 * Opening a long thread: 2,000 messages (1,000 turns with compacted logs, a tool call every
 * fifth turn, two decision records a turn) seeded straight into SQLite, then the thread view
 * that GET /api/threads/:id answers with, built and serialised, timed.
 */
export async function measureThreadOpen(store: SqliteStore, now: number, messages = 2000) {
  const threadId = seedLongThread(store, now, messages);
  return { messages, ...(await timeThreadOpen(store, threadId)) };
}

/** The long thread of measureThreadOpen, seeded straight into SQLite; answers its id. */
export function seedLongThread(store: SqliteStore, now: number, messages = 2000): string {
  const sqlite = store.db.$client;
  const threadId = '00000000-0000-4000-8000-00000000b00c';
  const turns = messages / 2;
  sqlite
    .prepare("INSERT INTO threads (id, title, system_prompt, pinned, created_at, updated_at) VALUES (?, 'A long thread', '', 0, ?, ?)")
    .run(threadId, now, now);
  const insertMessage = sqlite.prepare(
    "INSERT INTO messages (id, thread_id, turn_id, role, content, status, created_at) VALUES (?, ?, ?, ?, ?, 'complete', ?)",
  );
  const insertTurn = sqlite.prepare(
    "INSERT INTO turns (id, thread_id, user_message_id, assistant_message_id, status, stats, events, created_at, finished_at) VALUES (?, ?, ?, ?, 'done', ?, ?, ?, ?)",
  );
  const insertCall = sqlite.prepare(
    'INSERT INTO tool_calls (id, turn_id, thread_id, name, arguments, ok, result, repeat, ms, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, 0, 12, ?)',
  );
  const insertDecision = sqlite.prepare(
    "INSERT INTO decision_records (layer_id, scope, scope_key, turn_id, thread_id, step_id, at, model_id, source, answers) VALUES ('decisionsHistory', 'thread', ?, ?, ?, ?, ?, 'bench-model', 'native', ?)",
  );
  const answer = 'The short answer is that it depends on the season and on how much time you have. '.repeat(8);
  sqlite.transaction(() => {
    for (let i = 0; i < turns; i++) {
      const at = now - (turns - i) * 60_000;
      const [turn, user, assistant] = [`bench-turn-${i}`, `bench-user-${i}`, `bench-answer-${i}`];
      insertMessage.run(user, threadId, turn, 'user', `Question ${i}: what should I plant in my garden this month?`, at);
      insertMessage.run(assistant, threadId, turn, 'assistant', answer, at + 1);
      const searched = i % 5 === 0;
      const events = searched
        ? [
            [1, 'turn'],
            [4, { tool_call: 'c1' }],
            [5, { tool_result: ['c1', 12] }],
            [40, 'answer-draft'],
            [41, 'message'],
            [42, 'done'],
          ]
        : [
            [1, 'turn'],
            [30, 'answer-draft'],
            [31, 'message'],
            [32, 'done'],
          ];
      insertTurn.run(
        turn,
        threadId,
        user,
        assistant,
        JSON.stringify([2, 3, searched ? 1 : 0, 0, 900, 160, 320, 1800, 1700, 0]),
        JSON.stringify(events),
        at,
        at + 2000,
      );
      if (searched)
        insertCall.run(
          `${turn}:c1`,
          turn,
          threadId,
          'web_search',
          '{"query":"what to plant this month"}',
          JSON.stringify({
            results: [{ title: 'Planting calendar', url: 'https://example.org/calendar', snippet: 'Sow peas and broad beans now.' }],
          }),
          at + 500,
        );
      insertDecision.run(
        threadId,
        turn,
        threadId,
        'freshness',
        at + 100,
        JSON.stringify({ needs_fresh: { kind: 'boolean', value: searched, p: 0.9 } }),
      );
      insertDecision.run(
        threadId,
        turn,
        threadId,
        'verdict',
        at + 1500,
        JSON.stringify({ verdict: { kind: 'choice', value: 'answered', p: 0.88 } }),
      );
    }
  })();
  return threadId;
}

/** The thread view GET /api/threads/:id answers with, built and serialised, 30 times (the first 5 warm up). */
export async function timeThreadOpen(store: Store, threadId: string) {
  const registry = { isLive: () => false } as unknown as Parameters<typeof threadView>[1];
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < 30; run++) {
    const t0 = performance.now();
    bytes = JSON.stringify(await threadView(store, registry, threadId)).length;
    times.push(performance.now() - t0);
  }
  return { p50: pct(times.slice(5), 50), p95: pct(times.slice(5), 95), bytes };
}

/** grep_attachment over a generated log of `megabytes` MB with a planted error line: the exact count, and how long it took. */
export async function measureGrep(dir: string, megabytes = 200) {
  const file = path.join(dir, 'big.log');
  const out = fs.openSync(file, 'w');
  let planted = 0;
  let lines = 0;
  let size = 0;
  const block: string[] = [];
  for (let i = 1; size < megabytes * 1024 * 1024; i++) {
    const error = i % 9973 === 0;
    if (error) planted++;
    const line = `2026-11-30T12:${String(i % 60).padStart(2, '0')}:00Z ${error ? 'ERROR payment gateway timeout' : 'INFO request served in 12 ms'} request=${i} user=${(i * 7919) % 100000}\n`;
    size += line.length;
    lines++;
    block.push(line);
    if (block.length === 10_000) fs.writeSync(out, block.splice(0).join(''));
  }
  fs.writeSync(out, block.join(''));
  fs.closeSync(out);
  const deps = {
    now: () => 0,
    timezone: 'UTC',
    threadId: 't',
    attachmentText: () => ({ name: 'big.log', path: file, text: '', chars: size, lines }),
  };
  const t0 = performance.now();
  const result = (await grepAttachmentTool.run(
    { id: '00000000-0000-4000-8000-000000000001', pattern: 'ERROR payment' },
    deps,
    new AbortController().signal,
  )) as { matching_lines: number };
  const seconds = (performance.now() - t0) / 1000;
  fs.rmSync(file, { force: true });
  return { megabytes: size / 1024 / 1024, lines, planted, counted: result.matching_lines, seconds };
}
