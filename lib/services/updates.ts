/**
 * Changes to the library made outside a turn's own event stream, for pages that show them:
 * a fact remembered or forgotten (from the chat or another tab), a thread's title written in
 * the background. GET /api/events streams them; the page refreshes what changed.
 */

/** memories: facts changed; thread: a title written; library: an import added threads and facts. */
export type LibraryUpdate = { type: 'memories' } | { type: 'thread'; id: string; title: string } | { type: 'library' };

export class LibraryUpdates {
  private readonly listeners = new Set<(update: LibraryUpdate) => void>();

  publish(update: LibraryUpdate): void {
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

  subscribe(listener: (update: LibraryUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
