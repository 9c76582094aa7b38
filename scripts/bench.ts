/**
 * `npm run bench`: the engine's own cost against the llama-server double.
 *  - per turn: wall time from start to the final event, minus the time spent waiting on the
 *    model (every model call, streaming included), over plain turns and gated research turns;
 *  - per streamed token: the time Hearth spends handling one delta (markup holdback, event
 *    stored in SQLite, listeners notified).
 *  - time to first token: from sending a message to its first streamed word, through Hearth
 *    (save, context, queue, engine, event log) against the same request sent straight to the
 *    double, over 12-turn threads (bench-first-token.ts); Hearth adds at most 3 ms at p50;
 *  - prompt-cache reuse over those threads (two slots, so side calls keep to their own): how much
 *    of each prompt the slot already held, from the double's /metrics and per request;
 *  - a thinking model: time to its first thinking token and to its first answer token, and how
 *    much of what the slot held after each turn the next one reused (five-turn threads);
 *  - the time a research turn spends in checks on a large model, and with a small checks model
 *    (bench-checks.ts; the double runs the two at simulated GPU speeds);
 *  - the gate's classifier: its time per draft, and the share of turns it spared a verdict call;
 *  - a 200 MB CSV read into its table: the time, the reader's peak memory, an exact sum over
 *    every row (bench-tables.ts);
 *  - knowledge collections: indexing throughput (the embedding calls timed apart), retrieval
 *    p50 and p95 at 100,000 and 1,000,000 passages of 384 and 768 dimensions, and the bytes
 *    kept per passage (bench-knowledge.ts);
 *  - history search on PostgreSQL beside SQLite's, over the same library copied there with
 *    db:copy (when BENCH_DATABASE_URL names a server), and the copy's time.
 * Targets: p50 ≤ 10 ms per turn, ≤ 1 ms per token (the double answers at once, so these are
 * Hearth's own costs).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLlamaDouble } from '../e2e/double/llama-double';
import { startSearxDouble } from '../e2e/double/searxng-double';
import { openDatabase } from '../db/client';
import { openPgStore } from '../db/pg/store';
import { createStore } from '../db/store';
import { parseConfig } from '../lib/shared/config';
import { createLlamaClient } from '../lib/models/client';
import type { ModelClient } from '../lib/models/types';
import { buildRuntime } from '../lib/services/runtime';
import { makeTempDir } from '../lib/dev/testing/temp-dir';
import { describeChecks, describeVerdictCost, measureChecks, measureVerdictCost } from './bench-checks';
import { measureClassifier } from './bench-classifier';
import { describeTableBench, measureTable } from './bench-tables';
import { measureIndexing, measureRetrieval, RETRIEVAL_SIZES } from './bench-knowledge';
import { describeFirstToken, describeThinking, measureFirstToken, measureThinking } from './bench-first-token';
import { measureHandover } from './bench-handover';
import { measureSharedQueue } from './bench-queue';
import { measureImport } from './bench-import';
import { measureGrep, measureSearch, measureThreadOpen, pct, seedLibrary, seedLongThread, timeThreadOpen } from './bench-library';
import { measureLoad } from './bench-load';
import { measureStorage } from './bench-storage';
import { BenchTable } from './bench-table';
import pg from 'pg';
import { copyInstallation, placeOf } from '../db/pg/copy';
import { libraryOptions } from '../db/pg/migrate';
import { pgSearchQueries } from '../db/pg/search';
import { withScratchDatabase } from '../db/pg/testing';

const TURNS = Number(process.env.BENCH_TURNS ?? 40);
/** `npm run bench -- --json FILE` also writes the table as JSON. */
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;
const table = new BenchTable();

const double = await startLlamaDouble();
const searx = await startSearxDouble();
const dir = makeTempDir('hearth-bench');
// Titles off: each turn here opens a new thread, and a title call in the background would count as this turn's model time.
const config = parseConfig({
  LLAMA_URL: double.url,
  SEARXNG_URL: searx.url,
  DATA_DIR: dir,
  HEARTH_TIMEZONE: 'UTC',
  MODEL_SLOTS: '1',
  HEARTH_TITLES: 'first-words',
});
const store = createStore(openDatabase(path.join(dir, 'hearth.db')));

// Measure model waits and per-delta handling by wrapping the real client.
const real = createLlamaClient({ baseURL: config.LLAMA_URL[0], timeoutMs: 10_000 });
// Time with at least one model call in flight (calls may overlap: the union, not the sum).
let modelMs = 0;
let inFlight = 0;
let busySince = 0;
const tokenMs: number[] = [];
const model: ModelClient = {
  health: () => real.health(),
  async chat(request, options) {
    const onDelta = options?.onDelta;
    if (inFlight++ === 0) busySince = performance.now();
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
      // Handling a streamed token is Hearth's own work, not waiting on the model.
      modelMs -= handling;
      if (--inFlight === 0) modelMs += performance.now() - busySince;
    }
  },
};
const rt = await buildRuntime(config, store, { model });

const questions = ['Explain how tides work.', 'What is the price of bitcoin today?', 'Tell me a short story about a lighthouse.'];
const perTurn: Record<string, number[]> = {};
for (let i = 0; i < TURNS + 3; i++) {
  const thread = await store.createThread({ id: crypto.randomUUID(), title: '', now: Date.now() });
  const q = questions[i % questions.length];
  modelMs = 0;
  const t0 = performance.now();
  const { turnId } = await rt.turns.start({ threadId: thread.id, content: q });
  await rt.turns.follow(turnId);
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
table.sample('engine time per turn', 'ms', all, { target: 'p50 ≤ 10', met: turnP50 <= 10 });
table.sample('engine time per streamed token', 'ms', tokenMs, { target: 'p50 ≤ 1', met: tokenP50 <= 1 });

// Time to first token and prompt-cache reuse over 12-turn threads (scripts/bench-first-token.ts).
const firstToken = await measureFirstToken(searx.url);
console.log(describeFirstToken(firstToken));
const added = pct(firstToken.hearth, 50) - pct(firstToken.direct, 50);
table.sample('time to first token, 12-turn threads', 'ms', firstToken.hearth, {
  direct: { p50: pct(firstToken.direct, 50), p95: pct(firstToken.direct, 95) },
  target: 'adds ≤ 3 at p50',
  met: added <= 3,
});
table.sample('model calls per turn answered without tools', 'calls', firstToken.callsPerPlainTurn, {
  target: 'p50 ≤ 3',
  met: pct(firstToken.callsPerPlainTurn, 50) <= 3,
});
// The gate's classifier: its time per draft, and how many turns it spared a verdict call.
const classifier = measureClassifier();
const spared = firstToken.withoutVerdict.reduce((a, b) => a + b, 0) / Math.max(1, firstToken.withoutVerdict.length);
console.log(
  `gate classifier: p50 ${pct(classifier.ms, 50).toFixed(3)} ms, p95 ${pct(classifier.ms, 95).toFixed(3)} ms per draft over ${classifier.drafts} drafts of the frozen slices; ` +
    `turns answered without tools and without a verdict call: ${(spared * 100).toFixed(0)}% of ${firstToken.withoutVerdict.length} (the double's answers); ` +
    `genuine answers of the frozen slices accepted without one: ${(classifier.answeredWithoutVerdict * 100).toFixed(0)}%`,
);
table.sample('gate classifier, per draft', 'ms', classifier.ms, { target: 'p95 < 1', met: pct(classifier.ms, 95) < 1 });
table.add({ measure: 'turns without tools answered with no verdict call', unit: 'share', p50: spared, p95: null });
table.add({
  measure: 'frozen-slice answers the classifier alone would accept (setting off)',
  unit: 'share',
  p50: classifier.answeredWithoutVerdict,
  p95: null,
});
console.log(
  `prompt cache: each turn's first call found ${(pct(firstToken.firstCallReuse, 50) * 100).toFixed(1)}% of its prompt in the slot at p50 (min ${(Math.min(...firstToken.firstCallReuse) * 100).toFixed(1)}%); all calls: ${(firstToken.fromCache * 100).toFixed(1)}% of prompt tokens from the cache (/metrics)`,
);
// A thinking model: first thinking token, first answer token, and the cache over five-turn threads.
const thinking = await measureThinking(searx.url);
console.log(describeThinking(thinking));
table.sample('thinking model: first thinking token', 'ms', thinking.firstThinking);
table.sample('thinking model: first answer token', 'ms', thinking.firstAnswer);
table.sample("thinking model: previous turn's slot reused", 'share', thinking.previousReuse);
// Checks on the conversation's large model, then on a small checks model.
const checks = await measureChecks(searx.url);
console.log(describeChecks(checks));
table.sample('checks per research turn, on the 32B conversation model', 'ms', checks.without.checksMs);
table.sample('checks per research turn, on a 0.6B checks model', 'ms', checks.with.checksMs, {
  target: 'below the 32B',
  met: pct(checks.with.checksMs, 50) < pct(checks.without.checksMs, 50),
});
// The verdict on every answer: from the answer's last token (already on screen) to done, and how many turns asked it.
const verdictCost = await measureVerdictCost(searx.url);
console.log(describeVerdictCost(verdictCost));
table.sample('last answer token to done, verdict on the 32B', 'ms', verdictCost.conversationModel.tailMs);
table.sample('last answer token to done, verdict on a 0.6B checks model', 'ms', verdictCost.checksModel.tailMs);
table.add({
  measure: 'turns that spent a verdict call',
  unit: 'share',
  p50: verdictCost.conversationModel.verdictTurns / Math.max(1, verdictCost.conversationModel.turns),
  p95: null,
});
// Bytes stored per byte of conversation text over 30 turns (target: at most 3, search index included).
const storage = await measureStorage();
console.log(
  `storage over ${storage.turns} turns: ${storage.storedBytes.toLocaleString('en')} bytes stored for ${storage.textBytes.toLocaleString('en')} bytes of text, ${storage.perByte.toFixed(2)} per byte (target <= 3); largest: ${storage.tables
    .slice(0, 4)
    .map((t) => `${t.name} ${(t.bytes / 1024).toFixed(1)} KB`)
    .join(', ')}`,
);

table.sample('SQLite rows written per turn', 'rows', storage.writesPerTurn);
table.sample('bytes stored per turn', 'bytes', storage.bytesPerTurn);
table.add({
  measure: 'bytes stored per byte of text',
  unit: 'ratio',
  p50: storage.perByte,
  p95: null,
  target: '≤ 3',
  met: storage.perByte <= 3,
});

// Search at scale: a generated library seeded straight into SQLite (BENCH_SEARCH_SIZES, default 100,000 and 1,000,000 messages).
const sizes = (process.env.BENCH_SEARCH_SIZES ?? '100000,1000000')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const libraryDir = makeTempDir('hearth-bench');
const library = createStore(openDatabase(path.join(libraryDir, 'hearth.db')));
let seeded = 0;
for (const size of sizes) {
  const s = seedLibrary(library, size - seeded, Date.UTC(2026, 11, 1), size);
  seeded = size;
  console.log(`search over ${size.toLocaleString('en')} messages (seeded in ${s.seconds.toFixed(0)} s; target p95 <= 50 ms at 1,000,000):`);
  const kinds = await measureSearch(library, Date.UTC(2026, 11, 1));
  for (const r of kinds) {
    console.log(
      `  ${r.label.padEnd(24)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  (${r.hits.toFixed(1)} hits)`,
    );
  }
  // The slowest kind of query stands for the size in the table.
  const worst95 = Math.max(...kinds.map((k) => k.p95));
  table.add({
    measure: `search, ${size.toLocaleString('en')} messages (slowest query kind)`,
    unit: 'ms',
    p50: Math.max(...kinds.map((k) => k.p50)),
    p95: worst95,
    ...(size >= 1_000_000 ? { target: 'p95 ≤ 50', met: worst95 <= 50 } : {}),
  });
}

// A long thread opened, and grep over a large attached log.
// The same search on PostgreSQL (BENCH_DATABASE_URL: a server where the bench may make a database),
// over the largest library above, copied there with db:copy.
if (process.env.BENCH_DATABASE_URL) {
  const size = sizes.at(-1) ?? 0;
  await withScratchDatabase(process.env.BENCH_DATABASE_URL, async (url) => {
    const copyStarted = performance.now();
    await copyInstallation(placeOf(libraryDir), placeOf(url));
    const copySeconds = (performance.now() - copyStarted) / 1000;
    const pool = new pg.Pool({ connectionString: url, options: libraryOptions('hearth'), max: 2 });
    try {
      await pool.query('ANALYZE');
      console.log(`search on PostgreSQL over ${size.toLocaleString('en')} messages (copied there in ${copySeconds.toFixed(0)} s):`);
      const kinds = await measureSearch(pgSearchQueries(pool), Date.UTC(2026, 11, 1));
      for (const r of kinds)
        console.log(
          `  ${r.label.padEnd(24)} p50 ${r.p50.toFixed(1).padStart(6)} ms  p95 ${r.p95.toFixed(1).padStart(6)} ms  (${r.hits.toFixed(1)} hits)`,
        );
      table.add({
        measure: `search on PostgreSQL, ${size.toLocaleString('en')} messages (slowest query kind)`,
        unit: 'ms',
        p50: Math.max(...kinds.map((k) => k.p50)),
        p95: Math.max(...kinds.map((k) => k.p95)),
      });
      table.add({ measure: `db:copy of ${size.toLocaleString('en')} messages to PostgreSQL`, unit: 's', p50: copySeconds, p95: null });
    } finally {
      await pool.end();
    }
  });
  // Hearth itself on PostgreSQL, beside SQLite's figures above: a turn's first token, and a long thread opened.
  await withScratchDatabase(process.env.BENCH_DATABASE_URL, async (url) => {
    const onPostgres = await openPgStore(url, 'hearth');
    try {
      const first = await measureFirstToken(searx.url, undefined, onPostgres);
      const addedThere = pct(first.hearth, 50) - pct(first.direct, 50);
      console.log(`first token with the libraries on PostgreSQL: ${describeFirstToken(first)}`);
      table.add({
        measure: 'first-token overhead, PostgreSQL (Hearth − direct, p50)',
        unit: 'ms',
        p50: addedThere,
        p95: pct(first.hearth, 95) - pct(first.direct, 95),
        target: 'p50 ≤ 25',
        met: addedThere <= 25,
      });
    } finally {
      await onPostgres.close();
    }
  });
  await withScratchDatabase(process.env.BENCH_DATABASE_URL, async (url) => {
    const seeded = makeTempDir('hearth-bench');
    const threadId = seedLongThread(createStore(openDatabase(path.join(seeded, 'hearth.db'))), Date.UTC(2026, 11, 1));
    await copyInstallation(placeOf(seeded), placeOf(url));
    const onPostgres = await openPgStore(url, 'hearth');
    try {
      const open = await timeThreadOpen(onPostgres, threadId);
      console.log(
        `open a 2,000-message thread on PostgreSQL (view built and serialised): p50 ${open.p50.toFixed(1)} ms, p95 ${open.p95.toFixed(1)} ms`,
      );
      table.add({
        measure: 'open a 2,000-message thread, PostgreSQL',
        unit: 'ms',
        p50: open.p50,
        p95: open.p95,
        target: 'p95 ≤ 200',
        met: open.p95 <= 200,
      });
    } finally {
      await onPostgres.close();
    }
  });
  // The slot queue two processes share: a turn's way in, and a slot passing from one process's turn to the other's.
  await withScratchDatabase(process.env.BENCH_DATABASE_URL, async (url) => {
    const queue = await measureSharedQueue(url, { runs: Number(process.env.BENCH_QUEUE_RUNS ?? 50) });
    for (const [what, times] of [
      ['a turn takes a free slot', queue.enter],
      ['a slot passes to a turn waiting in the other process', queue.handOn],
    ] as const) {
      console.log(`shared slot queue, ${what}: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`);
      table.add({ measure: `shared slot queue: ${what}`, unit: 'ms', p50: pct(times, 50), p95: pct(times, 95) });
    }
  });
  // A turn handed over between two processes on one database: from a process's end to the next event heard through the other.
  await withScratchDatabase(process.env.BENCH_DATABASE_URL, async (url) => {
    const handover = await measureHandover(url, { runs: Number(process.env.BENCH_HANDOVER_RUNS ?? 5) });
    for (const [how, times] of [
      ['killed', handover.killed],
      ['SIGTERM', handover.stopped],
    ] as const) {
      console.log(
        `turn handed over (${how}), end of the first process to the next event through the second: p50 ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms (leases of ${handover.leaseMs / 1000} s)`,
      );
      table.add({
        measure: `turn handed over after a process is ${how === 'killed' ? 'killed' : 'stopped (SIGTERM)'}`,
        unit: 'ms',
        p50: pct(times, 50),
        p95: pct(times, 95),
      });
    }
  });
} else
  console.log(
    'search, first token, a long thread and a turn handed over on PostgreSQL: skipped (set BENCH_DATABASE_URL to a server where the bench may make a database)',
  );

const opened = await measureThreadOpen(
  createStore(openDatabase(path.join(makeTempDir('hearth-bench'), 'thread.db'))),
  Date.UTC(2026, 11, 1),
);
console.log(
  `open a ${opened.messages.toLocaleString('en')}-message thread (GET /api/threads/:id, view built and serialised): p50 ${opened.p50.toFixed(1)} ms, p95 ${opened.p95.toFixed(1)} ms, ${(opened.bytes / 1e6).toFixed(1)} MB of JSON`,
);
table.add({
  measure: `open a ${opened.messages.toLocaleString('en')}-message thread`,
  unit: 'ms',
  p50: opened.p50,
  p95: opened.p95,
  target: 'p95 ≤ 200',
  met: opened.p95 <= 200,
});
const grep = await measureGrep(makeTempDir('hearth-bench'), Number(process.env.BENCH_GREP_MB ?? 200));
console.log(
  `grep_attachment over a ${grep.megabytes.toFixed(0)} MB log (${grep.lines.toLocaleString('en')} lines): ${grep.counted} matching lines counted (${grep.planted} planted${grep.counted === grep.planted ? ', exact' : ', WRONG'}) in ${grep.seconds.toFixed(1)} s`,
);

table.add({
  measure: `grep_attachment over a ${grep.megabytes.toFixed(0)} MB log (exact count)`,
  unit: 's',
  p50: grep.seconds,
  p95: null,
  target: 'exact',
  met: grep.counted === grep.planted,
});
// A 200 MB CSV statement read into its table, then summed exactly (scripts/bench-tables.ts).
const bigTable = await measureTable();
console.log(describeTableBench(bigTable));
table.add({ measure: `table: read a ${bigTable.megabytes.toFixed(0)} MB CSV`, unit: 's', p50: bigTable.buildSeconds, p95: null });
table.add({
  measure: 'table: reader peak memory',
  unit: 'MB',
  p50: bigTable.peakMb,
  p95: null,
  target: '≤ 512',
  met: bigTable.peakMb <= 512,
});
table.add({
  measure: `table: exact sum over ${bigTable.rows.toLocaleString('en')} rows`,
  unit: 'ms',
  p50: bigTable.sumMs,
  p95: null,
  target: 'to the cent',
  met: bigTable.exact,
});
console.log(`memory: rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);

// Knowledge collections: indexing against the double's embeddings, then retrieval at scale (scripts/bench-knowledge.ts).
const indexing = await measureIndexing();
console.log(
  `knowledge: indexed ${indexing.chunks.toLocaleString('en')} passages of ${indexing.files} files in ${(indexing.totalMs / 1000).toFixed(1)} s (${indexing.perSecond.toFixed(0)}/s; ${indexing.perSecondWithoutEmbedding.toFixed(0)}/s without the ${(indexing.embedMs / 1000).toFixed(1)} s of embedding calls)`,
);
table.add({ measure: 'knowledge: indexing, passages per second', unit: '/s', p50: indexing.perSecond, p95: null });
table.add({ measure: 'knowledge: indexing without the embedding calls', unit: '/s', p50: indexing.perSecondWithoutEmbedding, p95: null });
for (const size of RETRIEVAL_SIZES) {
  for (const dims of [384, 768]) {
    const r = await measureRetrieval(size, dims);
    const target = size <= 100_000 ? 50 : 150;
    console.log(
      `knowledge: ${size.toLocaleString('en')} passages of ${dims} dimensions (loaded in ${r.loadSeconds.toFixed(0)} s): retrieval p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms (the first, which reads the vectors into memory, ${r.firstMs.toFixed(0)} ms); ${r.bytesPerChunk.toFixed(0)} bytes per passage`,
    );
    table.add({
      measure: `knowledge: retrieval, ${size.toLocaleString('en')} passages × ${dims}`,
      unit: 'ms',
      p50: r.p50,
      p95: r.p95,
      target: `p95 ≤ ${target}`,
      met: r.p95 <= target,
    });
    table.add({
      measure: `knowledge: bytes per passage, ${size.toLocaleString('en')} × ${dims}`,
      unit: 'B',
      p50: r.bytesPerChunk,
      p95: null,
    });
  }
}

// A 200 MB ChatGPT export through POST /api/import on the production server: it streams in, so
// the server's peak memory stays far below the file's size.
const imported = await measureImport();
console.log(
  `import: ChatGPT export of ${imported.megabytes.toFixed(0)} MB (${imported.conversations.toLocaleString('en')} conversations) in ${imported.seconds.toFixed(1)} s (${(imported.megabytes / imported.seconds).toFixed(0)} MB/s); server rss idle ${imported.idleMb.toFixed(0)} MB, peak ${imported.peakMb.toFixed(0)} MB`,
);
table.add({ measure: `import: ${imported.megabytes.toFixed(0)} MB ChatGPT export`, unit: 's', p50: imported.seconds, p95: null });
table.add({
  measure: 'import: server peak memory (next start)',
  unit: 'MB',
  p50: imported.peakMb,
  p95: null,
  target: '≤ 512',
  met: imported.peakMb <= 512,
});

// Resident memory of the production server (next start; built first if needed), idle and
// under 20 concurrent turns (20 clients, a thread each).
const twenty = await measureLoad(Number(process.env.BENCH_MEMORY_SECONDS ?? 15), { clients: 20, threads: 20 });
table.add({ measure: 'resident memory, idle (next start)', unit: 'MB', p50: twenty.memory.idle, p95: null });
table.sample('resident memory, 20 concurrent turns', 'MB', twenty.rssMb.slice(1), {
  target: 'p95 ≤ 512',
  met: pct(twenty.rssMb.slice(1), 95) <= 512,
});
// Load: 50 clients over 10 threads.
const load = await measureLoad(Number(process.env.BENCH_LOAD_SECONDS ?? 60));
console.log(
  `load, 50 clients over 10 threads for ${load.seconds} s against next start (heap capped at 128 MB): ${load.asked} turns answered (${(load.asked / load.seconds).toFixed(1)}/s), ${load.followed} followed while busy, ${load.events.toLocaleString('en')} events; ` +
    `turn p50 ${pct(load.turnMs, 50).toFixed(0)} ms, p95 ${pct(load.turnMs, 95).toFixed(0)} ms; first event p50 ${pct(load.firstEventMs, 50).toFixed(0)} ms, p95 ${pct(load.firstEventMs, 95).toFixed(0)} ms; ` +
    `errors ${load.errors.length}, broken streams ${load.broken}, mismatched answers ${load.mismatched}; rss idle ${load.memory.idle.toFixed(0)} MB, under load ${load.memory.early.toFixed(0)} -> ${load.memory.late.toFixed(0)} MB (target: no errors, growth < 25%)`,
);
table.sample('load: turn, 50 clients over 10 threads', 'ms', load.turnMs, {
  target: 'no errors, none lost',
  met: load.errors.length === 0 && load.broken === 0 && load.mismatched === 0,
});
table.sample('load: first event', 'ms', load.firstEventMs);
table.add({
  measure: 'load: resident memory growth under load',
  unit: '×',
  p50: load.memory.ratio,
  p95: null,
  target: '< 1.25',
  met: load.memory.ratio < 1.25,
});
table.print();
if (jsonOut) table.write(jsonOut);
await double.close();
await searx.close();
process.exit(table.allMet ? 0 : 1);
