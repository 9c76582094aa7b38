import type { ChangeNotice, ChangeFeed } from '@/lib/services/change-feed';
import type { StreamedEvent, TurnSupervisor } from '@/lib/turns/supervisor/supervisor';
import { shutdownSignal } from '@/lib/services/shutdown';

/**
 * Server-sent event streams: a turn's events (the stored backlog after `after`, then live ones)
 * and the library's changes (GET /api/events).
 */

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
};

/** Proxies drop idle streams; a comment line keeps one open while nothing happens. */
const KEEPALIVE_MS = 15_000;

export function frame(event: StreamedEvent): string {
  return `id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * A text/event-stream body: `open` starts sending (through `write`) and may end it (`close`);
 * it returns what to undo when the stream ends. The stream ends when `open` closes it, when
 * the client goes (`signal`, or the body is cancelled) or when a write fails; a comment line
 * every KEEPALIVE_MS keeps proxies from dropping it meanwhile.
 */
function eventStream(
  requestSignal: AbortSignal | undefined,
  open: (write: (text: string) => void, close: () => void) => (() => void) | void,
): ReadableStream<Uint8Array> {
  // A stream also ends when Hearth is stopping, so the server can close (lib/services/shutdown.ts).
  const signal = requestSignal ? AbortSignal.any([requestSignal, shutdownSignal()]) : shutdownSignal();
  const encoder = new TextEncoder();
  let cleanup = () => undefined as void;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      // let, not const: open() may call close(), and so cleanup(), before either is assigned.
      // eslint-disable-next-line prefer-const
      let undo: (() => void) | void;
      // eslint-disable-next-line prefer-const
      let timer: NodeJS.Timeout | undefined;
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
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close(); // the client went away
        }
      };
      const onAbort = () => close();
      cleanup = () => {
        if (timer) clearInterval(timer);
        undo?.();
        signal.removeEventListener('abort', onAbort);
      };
      undo = open(write, close);
      if (closed) return undo?.();
      timer = setInterval(() => write(': keepalive\n\n'), KEEPALIVE_MS);
      // a signal aborted before the stream began fires no event: end it now
      if (signal.aborted) return close();
      signal.addEventListener('abort', onAbort, { once: true });
    },
    cancel() {
      cleanup();
    },
  });
}

/** A turn's events after `after`, then live ones until it ends. */
export function turnEventStream(turns: TurnSupervisor, turnId: string, after: number, signal?: AbortSignal): ReadableStream<Uint8Array> {
  return eventStream(signal, (write, close) => {
    let lastSeq = after;
    const send = (event: StreamedEvent) => {
      if (event.seq <= lastSeq) return;
      lastSeq = event.seq;
      write(frame(event));
    };
    // The backlog comes first through `send`, then live events; a stream closed meanwhile lets go.
    let unsubscribe: (() => void) | null = null;
    let over = false;
    turns.subscribe(turnId, after, { event: send, end: close }).then(
      (sub) => {
        if (over) return sub.unsubscribe();
        unsubscribe = sub.unsubscribe;
        // Closing the tab ends this stream, never the turn.
        if (!sub.live) close();
      },
      () => close(),
    );
    return () => {
      over = true;
      unsubscribe?.();
    };
  });
}

/**
 * The change feed as text/event-stream (GET /api/events), for an open page to refresh
 * what changed: `data: {"type":"memories"}` or `data: {"type":"thread","id":…,"title":…}`.
 * There is no backlog: a page that (re)connects loads what it shows afresh.
 */
export function libraryEventStream(updates: ChangeFeed, signal?: AbortSignal): ReadableStream<Uint8Array> {
  return eventStream(signal, (write) => {
    // EventSource reconnects by itself; `retry` sets how soon, the comment opens the stream at once.
    write('retry: 3000\n: connected\n\n');
    return updates.subscribe((update: ChangeNotice) => write(`data: ${JSON.stringify(update)}\n\n`));
  });
}
