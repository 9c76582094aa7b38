import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startHearth } from '@/e2e/contract/hearth-server';
import { startLlamaDouble } from '@/e2e/double/llama-double';
import { persona } from '@/e2e/double/persona';
import { readSse } from '@/lib/contract/sse';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';

/**
 * A bounded load run against a running Hearth: `clients` clients over `threads` threads for
 * `seconds`. Each client asks a question in its thread; when the thread is busy (409) it follows
 * the running turn instead, as a second browser tab would. Every stream is checked: events
 * numbered 1, 2, 3… with none missing or repeated, ending in done, and the answer assembled
 * from its deltas equal to the one stored. The server's resident memory is sampled meanwhile.
 * Used by e2e/contract/load.test.ts (short) and `npm run bench` (the full minute).
 */

/**
 * What a load run drives: the built app with its heap capped, so that "steady memory" means
 * something (uncapped, V8 lets a busy heap grow lazily, to ~380 MB in a minute here, and
 * collects later; capped, a leak would show or crash), against a four-slot double whose answers
 * stream word by word, as a model's do, so turns overlap and threads are busy.
 */
export async function startLoadTarget() {
  const double = await startLlamaDouble({ slots: 4 });
  double.setScript((req) => {
    const reply = persona(req);
    return req.schema || isTitleRequest(req) ? reply : { ...reply, tokenDelayMs: 2 };
  });
  const hearth = await startHearth({
    LLAMA_URL: double.url,
    MODEL_SLOTS: '4',
    HEARTH_TITLES: 'first-words',
    NODE_OPTIONS: '--max-old-space-size=128',
  });
  return { double, hearth };
}

export type LoadOptions = { url: string; pid: number; clients: number; threads: number; seconds: number };

export type LoadResult = {
  seconds: number;
  clients: number;
  threads: number;
  /** Turns a client started and read to their end. */
  asked: number;
  /** Turns a client found running (409) and followed to their end. */
  followed: number;
  events: number;
  errors: string[];
  /** Streams with a repeated or out-of-order event, or (read from a turn's start) a missing one. */
  broken: number;
  /** Answers whose streamed text differs from the stored message. */
  mismatched: number;
  turnMs: number[];
  firstEventMs: number[];
  rssMb: number[];
};

/** A process's resident memory now (VmRSS) or at its peak so far (VmHWM), in MB, from /proc. */
export function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
}

type Streamed = { seqs: number[]; text: string; last: string; assistantMessageId?: string; error?: string };

async function readTurn(res: Response, onFirst: () => void): Promise<Streamed> {
  const out: Streamed = { seqs: [], text: '', last: '' };
  for await (const frame of readSse(res.body!)) {
    const e = JSON.parse(frame.data) as {
      seq: number;
      type: string;
      text?: string;
      assistantMessageId?: string;
      code?: string;
      message?: string;
    };
    if (out.seqs.length === 0) onFirst();
    out.seqs.push(e.seq);
    out.last = e.type;
    if (e.type === 'turn') out.assistantMessageId = e.assistantMessageId;
    if (e.type === 'delta') out.text += e.text ?? '';
    if (e.type === 'draft_rejected' || (e.type === 'status' && (e as { stage?: string }).stage === 'resumed')) out.text = '';
    if (e.type === 'error') out.error = `${e.code}: ${e.message}`;
  }
  return out;
}

const contiguous = (seqs: number[], from: number) => seqs.every((s, i) => s === from + i);
const increasing = (seqs: number[]) => seqs.every((s, i) => i === 0 || s > seqs[i - 1]);

export async function runLoad({ url, pid, clients, threads, seconds }: LoadOptions): Promise<LoadResult> {
  const json = { 'Content-Type': 'application/json' };
  const threadIds: string[] = [];
  for (let i = 0; i < threads; i++) {
    const r = await fetch(`${url}/api/threads`, { method: 'POST', headers: json, body: JSON.stringify({ title: `load ${i}` }) });
    threadIds.push(((await r.json()) as { id: string }).id);
  }
  const result: LoadResult = {
    seconds,
    clients,
    threads,
    asked: 0,
    followed: 0,
    events: 0,
    errors: [],
    broken: 0,
    mismatched: 0,
    turnMs: [],
    firstEventMs: [],
    rssMb: [],
  };
  const answers = new Map<string, string>();
  const sampler = setInterval(() => result.rssMb.push(memoryMb(pid)), 1000);
  result.rssMb.push(memoryMb(pid));
  const deadline = performance.now() + seconds * 1000;

  async function client(n: number) {
    const threadId = threadIds[n % threads];
    for (let i = 0; performance.now() < deadline; i++) {
      const t0 = performance.now();
      let first = 0;
      const res = await fetch(`${url}/api/threads/${threadId}/messages`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ content: `Client ${n}, question ${i}: tell me something.` }),
      });
      let streamed: Streamed;
      if (res.status === 200) {
        streamed = await readTurn(res, () => (first = performance.now() - t0));
        result.asked++;
      } else if (res.status === 409) {
        await res.text();
        const view = (await (await fetch(`${url}/api/threads/${threadId}`)).json()) as { activeTurn: { id: string } | null };
        if (!view.activeTurn) continue;
        const follow = await fetch(`${url}/api/threads/${threadId}/turns/${view.activeTurn.id}/events?after=0`);
        if (follow.status !== 200) {
          result.errors.push(`follow answered ${follow.status}`);
          continue;
        }
        streamed = await readTurn(follow, () => undefined);
        result.followed++;
      } else {
        result.errors.push(`POST messages answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
        continue;
      }
      result.events += streamed.seqs.length;
      // A stream from the start of a turn carries every event; one that joined a turn may find
      // it already finished, whose stored log is compacted (numbers kept, tokens merged).
      const whole = res.status === 200 ? contiguous(streamed.seqs, 1) : increasing(streamed.seqs);
      if (!whole) {
        result.broken++;
        if (result.broken === 1) result.errors.push(`a stream with a gap or a repeat: ${streamed.seqs.join(',')}`);
      }
      if (streamed.error || streamed.last !== 'done') result.errors.push(`a turn ended with ${streamed.error ?? streamed.last}`);
      if (res.status === 200) {
        result.turnMs.push(performance.now() - t0);
        result.firstEventMs.push(first);
        if (streamed.assistantMessageId) answers.set(streamed.assistantMessageId, streamed.text);
      }
    }
  }

  await Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
  clearInterval(sampler);
  result.rssMb.push(memoryMb(pid));
  // What was streamed is what was kept.
  for (const threadId of threadIds) {
    const view = (await (await fetch(`${url}/api/threads/${threadId}`)).json()) as { messages: { id: string; content: string }[] };
    for (const m of view.messages) if (answers.has(m.id) && answers.get(m.id)!.trim() !== m.content.trim()) result.mismatched++;
  }
  return result;
}

/**
 * Whether memory stayed steady under load: the median of the last third of the samples against
 * the middle third's. The first third is warm-up (code compiled, caches filled), not a leak.
 */
export function memoryGrowth(rss: number[]): { idle: number; early: number; late: number; ratio: number } {
  const third = Math.max(1, Math.floor(rss.length / 3));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const idle = rss[0] ?? 0;
  const early = median(rss.slice(third, 2 * third));
  const late = median(rss.slice(-third));
  return { idle, early, late, ratio: early ? late / early : 1 };
}
