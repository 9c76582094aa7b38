import type { Retrieval } from '@/lib/data/knowledge/retrieve';
import type { DocumentSearch } from '@/lib/tools/search-documents';
import type { Awaitable } from '@/lib/shared/awaitable';
import { HearthError } from '@/lib/shared/errors';
import type { Knowledge } from './knowledge';

/**
 * Knowledge collections shared with everyone (issue 48, item 4): the owner or an admin marks a
 * collection of theirs shared, and everyone else on the Hearth sees it beside their own, searches
 * it (the page, and search_documents in every thread) and reads its passages, but cannot change
 * it. Nothing else crosses from one library to another: the collection stays in its owner's
 * library, and another person reaches it only through this list, asked of the libraries of
 * the people who may share (a member's collection is never offered, whatever its flag says).
 */

/** A collection someone shared, with the knowledge of the library it lives in. */
export type SharedCollection = { id: string; name: string; sharedBy: string; knowledge: Knowledge };

/** The knowledge a collection id reaches for a person: their own, or another's shared one (read-only). */
export async function reachCollection(
  own: Knowledge,
  shared: Awaitable<SharedCollection[]>,
  id: string,
): Promise<{ knowledge: Knowledge; sharedBy?: string }> {
  if (await own.has(id)) return { knowledge: own };
  const found = (await shared).find((c) => c.id === id);
  if (found) return { knowledge: found.knowledge, sharedBy: found.sharedBy };
  throw new HearthError('not_found', 'There is no collection with that id.');
}

/** A change to a collection: only to one's own (a shared one of another's is read-only; an unknown one is 404). */
export async function ownCollection(own: Knowledge, shared: Awaitable<SharedCollection[]>, id: string): Promise<void> {
  const { sharedBy } = await reachCollection(own, shared, id);
  if (sharedBy) throw new HearthError('forbidden', `This collection is ${sharedBy}'s, shared with everyone to read: only they change it.`);
}

/** A thread's collections for search_documents: its own, and every collection shared with everyone. */
export function documentsWithShared(own: DocumentSearch, shared: () => Promise<SharedCollection[]>): DocumentSearch {
  return {
    collections: async () => {
      const mine = await own.collections();
      const ids = new Set(mine.map((c) => c.id));
      return [...mine, ...(await shared()).filter((c) => !ids.has(c.id))];
    },
    async search({ query, collectionIds }, signal) {
      const others = (await shared()).filter((c) => collectionIds.includes(c.id));
      const otherIds = new Set(others.map((c) => c.id));
      const mine = collectionIds.filter((id) => !otherIds.has(id));
      // Each library searched for its own collections, by the same query.
      const byLibrary = new Map<Knowledge, string[]>();
      for (const c of others) byLibrary.set(c.knowledge, [...(byLibrary.get(c.knowledge) ?? []), c.id]);
      const found = await Promise.all([
        ...(mine.length ? [own.search({ query, collectionIds: mine }, signal)] : []),
        ...[...byLibrary].map(([knowledge, ids]) => knowledge.search({ query, collectionIds: ids }, signal)),
      ]);
      return mergeRetrievals(found);
    },
  };
}

/** How many passages a search gives (retrieve's own default). */
const PASSAGES = 6;

/**
 * Several libraries' passages as one answer: taken in turn from each (each list is best first,
 * and scores of different searches are not comparable), numbered again from 1.
 */
export function mergeRetrievals(found: Retrieval[], limit = PASSAGES): Retrieval {
  if (found.length === 1) return found[0];
  const passages: Retrieval['passages'] = [];
  for (let rank = 0; passages.length < limit && found.some((r) => rank < r.passages.length); rank++)
    for (const r of found) if (rank < r.passages.length && passages.length < limit) passages.push(r.passages[rank]);
  const notes = [...new Set(found.flatMap((r) => (r.note ? [r.note] : [])))];
  return {
    passages: passages.map((p, i) => ({ ...p, n: i + 1 })),
    byMeaning: found.length > 0 && found.every((r) => r.byMeaning),
    ...(notes.length ? { note: notes.join(' ') } : {}),
  };
}
