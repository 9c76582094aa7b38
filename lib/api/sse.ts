import type { StreamedEvent, TurnRegistry } from '@/lib/turns/registry';

/** A turn's events as text/event-stream: the stored backlog after `after`, then live events. */

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
};

/** Proxies drop idle streams; a comment line keeps this one open while a turn waits. */
const KEEPALIVE_MS = 15_000;

export function frame(event: StreamedEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function turnEventStream(turns: TurnRegistry, turnId: string, after: number, signal?: AbortSignal): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cleanup = () => undefined as void;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      let lastSeq = after;
      const write = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close(); // the client went away
        }
      };
      const send = (event: StreamedEvent) => {
        if (closed || event.seq <= lastSeq) return;
        lastSeq = event.seq;
        write(frame(event));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const sub = turns.subscribe(turnId, after, { event: send, end: close });
      for (const e of sub.backlog) send(e);
      if (!sub.live) return close();
      const timer = setInterval(() => {
        if (!closed) write(': keepalive\n\n');
      }, KEEPALIVE_MS);
      // Closing the tab ends this stream, never the turn.
      const onAbort = () => close();
      signal?.addEventListener('abort', onAbort, { once: true });
      cleanup = () => {
        clearInterval(timer);
        sub.unsubscribe();
        signal?.removeEventListener('abort', onAbort);
      };
    },
    cancel() {
      cleanup();
    },
  });
}
