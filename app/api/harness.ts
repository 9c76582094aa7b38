import assert from 'node:assert/strict';
import path from 'node:path';
import { openDatabase } from '@/db/client';
import { openStoreAt } from '@/db/open';
import { makeDatabaseBeside } from '@/db/pg/testing';
import { createStore, type Store } from '@/db/store';
import { TEST_STORE_URL } from '@/lib/dev/testing/store';
import { readSse } from '@/lib/contract/sse';
import { parseConfig } from '@/lib/shared/config';
import type { TurnEvent } from '@/lib/contract/events';
import type { ModelClient } from '@/lib/models/types';
import { buildRuntime, getRuntime, setRuntime, type Runtime } from '@/lib/services/runtime';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { after, before } from 'node:test';
import * as attachmentsRoute from './attachments/route';
import * as messagesRoute from './threads/[id]/messages/route';
import * as threadRoute from './threads/[id]/route';
import * as threadsRoute from './threads/route';

/**
 * What the API tests share: a runtime over a temporary database, requests made the way Next
 * hands them to a route handler, and the turn's events read back from its stream.
 */

export type Ev = TurnEvent & { seq: number };

export type RuntimeOptions = {
  /** One model server, or several separated by commas. */
  llamaUrl: string;
  /** SearXNG base URL; web search is off without one. */
  searxUrl?: string;
  model?: ModelClient;
  now?: () => number;
  /** More configuration, as environment variables. */
  env?: Record<string, string>;
  /** An existing data folder (a restart over the same database); a new empty one by default. */
  dataDir?: string;
  /** Addresses the SSRF check treats as public (the local stand-ins of outside sites). */
  allowAddress?: (address: string) => boolean;
  /** The server's log; by default kept in `serverLog` (a model server a test stopped is expected to be "down"). */
  log?: (message: string) => void;
};

/** What the double was asked for turns: everything but the background title calls. */
export const turnRequests = (double: { requests: DoubleRequest[] }) => double.requests.filter((r) => !isTitleRequest(r));
/** The turns' conversation rounds (no decide steps, no titles). */
export const rounds = (double: { requests: DoubleRequest[] }) => turnRequests(double).filter((r) => !r.schema);

/** A fresh runtime on an empty data folder, installed as the one the routes use. */
/** What the runtimes of this test file logged, for a test that asserts on it, instead of the test run's output. */
export const serverLog: string[] = [];

/** The databases of this file's runtimes in npm test's pass on PostgreSQL, by their data folder. */
const databases = new Map<string, string>();

/**
 * A runtime's main library: SQLite's file in its data folder; in npm test's pass on PostgreSQL,
 * a database of its own (the same one again for the same folder: a restart over it).
 */
async function mainStore(dataDir: string): Promise<Store> {
  if (!TEST_STORE_URL) return createStore(openDatabase(path.join(dataDir, 'hearth.db')));
  let url = databases.get(dataDir);
  if (!url) databases.set(dataDir, (url = await makeDatabaseBeside(TEST_STORE_URL)));
  // A test makes a Hearth (a database, a pool) each: an earlier test's idle connections go within a second, or a suite outgrows the server's 100.
  return openStoreAt({ engine: 'postgres', url, schema: 'hearth' }, { connections: 4, idleMs: 1000 });
}

/** The Hearth a test made last: a new one stands for a new process, so this one's link to the others goes, as when a process ends. */
let previous: Runtime | undefined;

export async function makeRuntime(opts: RuntimeOptions): Promise<Runtime> {
  // On PostgreSQL each Hearth holds a connection for the others' signals: the one before is gone now (its turns may be taken over).
  if (previous) {
    for (const library of previous.hearth.libraries()) library.turns.close();
    await previous.hearth.signals?.close();
  }
  const dataDir = opts.dataDir ?? makeTempDir('hearth-api');
  const config = parseConfig({
    LLAMA_URL: opts.llamaUrl,
    DATA_DIR: dataDir,
    SEARXNG_URL: opts.searxUrl ?? '',
    HEARTH_TIMEZONE: 'UTC',
    MODEL_SLOTS: '1',
    MODEL_TIMEOUT_MS: '5000',
    ...opts.env,
  });
  const runtime = await buildRuntime(config, await mainStore(dataDir), {
    model: opts.model,
    now: opts.now,
    allowAddress: opts.allowAddress,
    log: opts.log ?? ((m) => serverLog.push(m)),
  });
  setRuntime(runtime);
  previous = runtime;
  return runtime;
}

/** Requests come to loopback, as from a browser on the same machine (the upload route checks the host itself). */
export const base = 'http://127.0.0.1:3000';

export const req = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
  new Request(`${base}${url}`, {
    method,
    headers: body === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

export const params = <T>(p: T) => ({ params: Promise.resolve(p) });

export async function newThread(): Promise<string> {
  const res = await threadsRoute.POST(req('POST', '/api/threads', {}));
  assert.equal(res.status, 201);
  return (await res.json()).id;
}

export async function events(res: Response): Promise<Ev[]> {
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const out: Ev[] = [];
  for await (const frame of readSse(res.body!)) out.push(JSON.parse(frame.data));
  return out;
}

export async function send(threadId: string, content: string): Promise<Ev[]> {
  const res = await messagesRoute.POST(req('POST', `/api/threads/${threadId}/messages`, { content }), params({ id: threadId }));
  if (res.status !== 200) assert.fail(`POST messages answered ${res.status}: ${await res.text()}`);
  const evs = await events(res);
  // A first exchange's title is written in the background: wait for it, so what a test sees next is settled.
  for (const library of (await getRuntime()).libraries()) await library.turns.backgroundIdle();
  return evs;
}

export async function getThread(id: string) {
  const res = await threadRoute.GET(req('GET', `/api/threads/${id}`), params({ id }));
  return { status: res.status, body: await res.json() };
}

/** Uploads one file as the page does (multipart, field "file"). */
export async function upload(name: string, bytes: string | Uint8Array, type = 'text/plain') {
  const form = new FormData();
  form.set('file', new File([typeof bytes === 'string' ? bytes : Buffer.from(bytes)], name, { type }));
  const res = await attachmentsRoute.POST(new Request(`${base}/api/attachments`, { method: 'POST', body: form }));
  return { status: res.status, body: await res.json() };
}

/** Sends a message with attachments and reads its turn to the end. */
export async function sendWith(threadId: string, content: string, attachmentIds: string[]): Promise<Ev[]> {
  const res = await messagesRoute.POST(
    req('POST', `/api/threads/${threadId}/messages`, { content, attachmentIds }),
    params({ id: threadId }),
  );
  assert.equal(res.status, 200);
  return events(res);
}

/**
 * One llama-server double for a test file, started before its tests and closed after them (the
 * runtime the routes use is let go first). Read `.double` inside a test, once it has started.
 */
export function sharedDouble(): { readonly double: LlamaDouble } {
  const shared = {} as { double: LlamaDouble };
  before(async () => {
    shared.double = await startLlamaDouble({});
  });
  after(async () => {
    setRuntime(undefined);
    await shared.double.close();
  });
  return shared;
}
