/**
 * The change feed: what changed outside a turn's own event stream, for pages that show it:
 * a fact remembered or forgotten (from the chat or another tab), a thread's title written in
 * the background. GET /api/events streams them; the page refreshes what changed.
 */

/** memories: facts changed; thread: a title written; library: an import added threads and facts. */
export type ChangeNotice = { type: 'memories' } | { type: 'thread'; id: string; title: string } | { type: 'library' };

/** Several processes on one database: the same library's feed in the others (lib/turns/supervisor/cluster.ts). */
export type OtherProcesses = { send(notice: ChangeNotice): void; listen(heard: (notice: ChangeNotice) => void): () => void };

export class ChangeFeed {
  private readonly listeners = new Set<(update: ChangeNotice) => void>();

  /** `others`: a page open on another process hears what changed here, and this one what changed there. */
  constructor(private readonly others?: OtherProcesses) {
    others?.listen((notice) => this.deliver(notice));
  }

  publish(update: ChangeNotice): void {
    this.deliver(update);
    this.others?.send(update);
  }

  private deliver(update: ChangeNotice): void {
    for (const listener of this.listeners) {
      try {
        listener(update);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }

  /** Open pages listening. */
  get listening(): number {
    return this.listeners.size;
  }

  subscribe(listener: (update: ChangeNotice) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
