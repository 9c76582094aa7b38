import type { Awaitable } from '@/lib/shared/awaitable';
import { z } from 'zod';
import { placeOf } from '@/lib/shared/words/place';
import type { Retrieval } from '@/lib/data/knowledge/retrieve';
import { defineTool, ToolError } from './types';

/**
 * search_documents: passages from the user's knowledge collections (lib/data/knowledge), found by
 * their words and by meaning, numbered [1], [2]… with their file and place, for an answer
 * that cites them. The page turns those numbers into links that open the passage.
 */

/** What the tool asks of the app: the thread's collections, and a search over some of them. */
export type DocumentSearch = {
  collections(): Awaitable<{ id: string; name: string }[]>;
  search(args: { query: string; collectionIds: string[] }, signal: AbortSignal): Promise<Retrieval>;
};

export const searchDocumentsTool = defineTool({
  name: 'search_documents',
  description:
    "Search the user's own documents (their knowledge collections: manuals, notes, papers, statements, code) for passages about something. " +
    'Ask in plain words; it finds passages by their words and by meaning. Answer from the passages and cite each one you use by its number, as [1].',
  params: z.object({
    query: z.string().min(1).max(500).describe('what to find, in plain words'),
    collection: z.string().max(200).optional().describe('the name of one collection to search; leave it out to search them all'),
  }),
  cost: 2,
  timeoutMs: 30_000,
  async run({ query, collection }, deps, signal) {
    const search = deps.documents;
    const collections = (await search?.collections()) ?? [];
    if (!search || collections.length === 0) throw new ToolError('this conversation uses no knowledge collection; answer without one');
    let chosen = collections;
    if (collection !== undefined && collection.trim() !== '') {
      const wanted = collection.trim().toLowerCase();
      chosen = collections.filter((c) => c.name.toLowerCase() === wanted || c.id === collection.trim());
      if (chosen.length === 0)
        throw new ToolError(
          `there is no collection called "${collection}" here; the collections are: ${collections.map((c) => c.name).join(', ')}`,
        );
    }
    const result = await search.search({ query, collectionIds: chosen.map((c) => c.id) }, signal);
    const names = new Map(collections.map((c) => [c.id, c.name]));
    return {
      searched: chosen.map((c) => c.name),
      by: result.byMeaning ? 'words and meaning' : 'words',
      ...(result.note ? { note: result.note } : {}),
      passages: result.passages.map((p) => ({
        n: p.n,
        file: p.fileName,
        collection: names.get(p.collectionId),
        place: placeOf(p),
        text: p.text,
        collection_id: p.collectionId,
        file_id: p.fileId,
        lines: [p.lineStart, p.lineEnd],
      })),
      ...(result.passages.length === 0
        ? { found: 'nothing: try other words, or say the documents do not cover it' }
        : { cite: 'cite each passage you use by its number in brackets, e.g. [1]' }),
    };
  },
});
