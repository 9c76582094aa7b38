/**
 * A thread is a tree of messages: regenerating an answer adds a sibling answer to the same
 * question, editing a question adds a sibling question, and each goes on from there. The page
 * shows one path, from a root to the thread's current leaf; the model sees the path to the
 * message it answers. Pure code over the rows of one thread, so the server, the registry and
 * the tests share one reading of it.
 */

export type TreeMessage = { id: string; parentId: string | null };

export class MessageTree<T extends TreeMessage> {
  private readonly byId = new Map<string, T>();
  /** Each message's place in the stored order (time, then id): a larger place is newer. */
  private readonly place = new Map<string, number>();
  private readonly children = new Map<string | null, T[]>();

  /** `messages` in stored order, oldest first. */
  constructor(private readonly messages: readonly T[]) {
    messages.forEach((m, i) => {
      this.byId.set(m.id, m);
      this.place.set(m.id, i);
    });
    for (const m of messages) {
      // A parent that is not in this thread makes its child a root rather than a lost message.
      const parent = m.parentId !== null && this.byId.has(m.parentId) ? m.parentId : null;
      const list = this.children.get(parent);
      if (list) list.push(m);
      else this.children.set(parent, [m]);
    }
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.messages.length;
  }

  /** The message the page shows last: the one asked for when it is in the thread, else the newest. */
  leaf(currentLeafId: string | null | undefined): T | undefined {
    return (currentLeafId ? this.byId.get(currentLeafId) : undefined) ?? this.messages.at(-1);
  }

  /** The messages from a root down to `id`, in order; empty for an unknown id. */
  pathTo(id: string): T[] {
    const path: T[] = [];
    const seen = new Set<string>();
    for (let m = this.byId.get(id); m && !seen.has(m.id); m = m.parentId !== null ? this.byId.get(m.parentId) : undefined) {
      seen.add(m.id);
      path.push(m);
    }
    return path.reverse();
  }

  /** The path the page shows. */
  shownPath(currentLeafId: string | null | undefined): T[] {
    const leaf = this.leaf(currentLeafId);
    return leaf ? this.pathTo(leaf.id) : [];
  }

  /** The message and everything that follows it, on any branch. */
  subtree(id: string): T[] {
    const out: T[] = [];
    const seen = new Set<string>();
    const stack = this.byId.has(id) ? [this.byId.get(id)!] : [];
    while (stack.length) {
      const m = stack.pop()!;
      if (seen.has(m.id)) continue;
      seen.add(m.id);
      out.push(m);
      stack.push(...(this.children.get(m.id) ?? []));
    }
    return out;
  }

  /** Where the page goes when a branch is chosen: the newest message under it (itself when nothing follows). */
  newestUnder(id: string): T | undefined {
    let best: T | undefined;
    for (const m of this.subtree(id)) if (!best || this.place.get(m.id)! > this.place.get(best.id)!) best = m;
    return best;
  }

  /** The versions of a message: it and its siblings (the same parent), oldest first. */
  siblings(id: string): T[] {
    const m = this.byId.get(id);
    if (!m) return [];
    const parent = m.parentId !== null && this.byId.has(m.parentId) ? m.parentId : null;
    return this.children.get(parent) ?? [m];
  }

  /**
   * The versions the page offers ("‹ 2 / 3 ›"): the siblings, less answers that ended with no
   * words (a failure or a stop before the first word). Retrying one takes its place instead of
   * making the first real answer "2 / 2"; its row and its turn's record stay.
   */
  versions(id: string, isWordless: (m: T) => boolean): T[] {
    return this.siblings(id).filter((m) => m.id === id || !isWordless(m));
  }

  /** The messages on no path to `leafId`'s root line (the other branches), in stored order. */
  offPath(currentLeafId: string | null | undefined): T[] {
    const on = new Set(this.shownPath(currentLeafId).map((m) => m.id));
    return this.messages.filter((m) => !on.has(m.id));
  }
}

/** An answer that ended with nothing to read: it failed or was stopped before its first word. */
export function endedWordless(m: { role: string; status: string; content: string }): boolean {
  return m.role === 'assistant' && (m.status === 'error' || m.status === 'interrupted') && m.content.trim() === '';
}
