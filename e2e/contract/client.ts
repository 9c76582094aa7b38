import assert from 'node:assert/strict';
import { readSse } from '@/lib/contract/sse';
import type { TurnEvent } from '@/lib/contract/events';

export type Ev = TurnEvent & { seq: number };

/** One HTTP exchange with a server under test, as the contract suites read it. */
export type Answer = { status: number; headers: Headers; body: unknown; text: string };

export type CallOptions = { json?: unknown; body?: BodyInit; headers?: Record<string, string> };

export async function httpCall(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  let body = opts.body;
  if (opts.json !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = typeof opts.json === 'string' ? opts.json : JSON.stringify(opts.json);
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, duplex: 'half', redirect: 'manual' } as RequestInit);
  const text = method === 'HEAD' ? '' : await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (SSE, markdown, HTML, empty)
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Asserts the JSON error contract: status, `{error: {code, message}}`, JSON content type. */
export function assertError(answer: Answer, status: number, code: string, what = '') {
  assert.equal(answer.status, status, `${what} ${answer.text.slice(0, 300)}`);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/, what);
  const err = (answer.body as { error?: { code?: unknown; message?: unknown } }).error;
  assert.equal(err?.code, code, `${what} ${answer.text.slice(0, 300)}`);
  assert.equal(typeof err?.message, 'string', what);
  assert.ok((err?.message as string).length > 0, what);
}

/** Reads a turn's event stream as it arrives: up to an awaited event, or to its end. */
export class EventReader {
  readonly events: Ev[] = [];
  private readonly frames: AsyncIterator<{ data: string }>;
  constructor(body: ReadableStream<Uint8Array>) {
    this.frames = readSse(body)[Symbol.asyncIterator]();
  }
  async until(done: (e: Ev) => boolean): Promise<Ev> {
    for (;;) {
      const next = await this.frames.next();
      if (next.done) throw new Error(`the stream ended before the awaited event; got ${this.events.map((e) => e.type).join(',')}`);
      const event = JSON.parse(next.value.data) as Ev;
      this.events.push(event);
      if (done(event)) return event;
    }
  }
  async rest(): Promise<Ev[]> {
    for (;;) {
      const next = await this.frames.next();
      if (next.done) return this.events;
      this.events.push(JSON.parse(next.value.data) as Ev);
    }
  }
}
