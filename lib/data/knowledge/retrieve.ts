import type { Awaitable } from '@/lib/shared/awaitable';
import type { ChunkHit, StoredChunk } from '@/db/rows';
import type { PassageView } from '@/lib/contract/responses';
import { sameMatch, searchTerms, wordMatch, type WordMatch } from '@/lib/data/search/query';
import type { Embedder } from './indexer';
import { normalised } from './indexer';

/**
 * Finding passages in knowledge collections: by their words (FTS5, bm25) and by meaning (the
 * nearest vectors), the two rankings fused by reciprocal rank (each list gives a passage
 * 1/(60 + rank): a passage high in either comes first, one in both before it), repeats left
 * out (the same file in two collections, the same text twice), and a short passage given its
 * neighbours in the file, so the model reads a whole thought. Each passage keeps its file,
 * page and lines, for the citation the page opens.
 */

/** The reciprocal-rank constant of Cormack, Clarke and Büttcher (SIGIR 2009): low ranks count, but not by much. */
const RRF_K = 60;
/** Candidates each ranking brings to the fusion. */
const CANDIDATES = 40;
/** A word in more than this share of the passages is left out of the any-word ranking... */
const COMMON_SHARE = 0.2;
/**
 * ...when it is also in more passages than this. In a small collection the share says nothing
 * (in two passages every word that matches is in half of them) and ranking a few hundred
 * passages by every word costs nothing.
 */
const COMMON_AT_LEAST = 200;
/** A passage shorter than this is read with the passages before and after it. */
const SHORT_CHARS = 400;

/** What retrieval reads: db/queries/knowledge-search.ts on SQLite, db/pg/knowledge-search.ts on PostgreSQL. */
export type RetrievalStore = {
  chunksMatching(args: { match: WordMatch; collectionIds: string[]; limit: number }): Awaitable<number[]>;
  termCounts(args: { terms: string[] }): Awaitable<{ total: number; counts: Map<string, number> }>;
  chunksNear(args: {
    vector: Float32Array;
    collectionIds: string[];
    limit: number;
    candidates: number;
  }): Awaitable<{ id: number; similarity: number }[]>;
  chunksByIds(args: { ids: number[] }): Awaitable<ChunkHit[]>;
  chunkAt(args: { fileId: string; seq: number }): Awaitable<StoredChunk | undefined>;
};

/** A passage found, numbered, with where it is (the API's shape: lib/contract/responses.ts). */
export type Passage = PassageView;

export type Retrieval = {
  passages: Passage[];
  /** Whether the search was by meaning too (false: no embeddings server, or it failed: see `note`). */
  byMeaning: boolean;
  note?: string;
};

export async function retrieve({
  store,
  query,
  collectionIds,
  embedder,
  near,
  limit = 6,
  signal,
}: {
  store: RetrievalStore;
  query: string;
  collectionIds: string[];
  embedder?: Embedder;
  /** The nearest-vector search off the main thread (db/vector-worker.ts); without it, store.chunksNear here. */
  near?: (args: {
    vector: Float32Array;
    collectionIds: string[];
    limit: number;
    candidates: number;
  }) => Promise<{ id: number; similarity: number }[]>;
  limit?: number;
  signal?: AbortSignal;
}): Promise<Retrieval> {
  if (collectionIds.length === 0) return { passages: [], byMeaning: false, note: 'no collection to search' };
  let note: string | undefined;
  // The query's vector first; its nearest passages are then searched (in a worker where there
  // is one) while the words are ranked here, so the two take the time of the slower.
  let nearby: Promise<number[]> = Promise.resolve([]);
  if (embedder) {
    try {
      const [vector] = await embedder.client.embed([query], signal);
      const args = { vector: normalised(vector), collectionIds, limit: CANDIDATES, candidates: CANDIDATES };
      const inThread = () => store.chunksNear(args);
      nearby = (near ? near(args).catch(() => inThread()) : Promise.resolve(inThread())).then(
        (hits) => hits.map((h) => h.id),
        (err: unknown) => {
          // The vectors could not be read: the words still answer, and the note says so.
          note = `searched by words only: the passages' vectors could not be read (${(err as Error).message})`;
          return [];
        },
      );
    } catch (err) {
      if (signal?.aborted) throw err;
      note = `searched by words only: the embeddings server failed (${(err as Error).message})`;
    }
  }
  // Two word rankings: passages with every word of the query, and with any of them. A passage
  // holding them all (a part number, a name, an exact phrase) is in both, so it counts twice
  // and an exact match is not outranked by passages merely near in meaning.
  const every = wordMatch(query, { prefix: false });
  const any = wordMatch(await telling(store, query), { anyWord: true, prefix: false });
  const withEvery = every ? await store.chunksMatching({ match: every, collectionIds, limit: CANDIDATES }) : [];
  const withAny = any && !sameMatch(any, every) ? await store.chunksMatching({ match: any, collectionIds, limit: CANDIDATES }) : withEvery;
  const byWords = [...new Set([...withEvery, ...withAny])];
  const byMeaning = await nearby;
  const fused = fuse([withEvery, withAny, byMeaning]);
  const found = new Map((await store.chunksByIds({ ids: fused.slice(0, limit * 3).map((f) => f.id) })).map((c) => [c.id, c]));
  const seen = new Set<string>();
  const passages: Passage[] = [];
  for (const { id } of fused) {
    const chunk = found.get(id);
    if (!chunk) continue;
    const key = `${chunk.sha256}:${chunk.seq}`;
    const text = chunk.text.trim();
    if (seen.has(key) || seen.has(text)) continue;
    seen.add(key);
    seen.add(text);
    const whole = text.length < SHORT_CHARS ? await withNeighbours(store, chunk) : chunk;
    passages.push({
      n: passages.length + 1,
      chunkId: chunk.id,
      fileId: chunk.fileId,
      fileName: chunk.fileName,
      collectionId: chunk.collectionId,
      page: chunk.page,
      lineStart: whole.lineStart,
      lineEnd: whole.lineEnd,
      text: whole.text,
      foundBy: [...(byWords.includes(id) ? (['words'] as const) : []), ...(byMeaning.includes(id) ? (['meaning'] as const) : [])],
    });
    if (passages.length >= limit) break;
  }
  return { passages, byMeaning: embedder !== undefined && note === undefined, ...(note ? { note } : {}) };
}

/**
 * The query without the words most passages hold ("how", "the", "do"): in a ranking by any
 * word they add little to bm25 and make it score nearly every passage (a question of six
 * words touched all 100,000 in the benchmark). Only in a large collection: in a small one the
 * common words are the ones that match. When none of the words kept is in any passage, the
 * least common word that is comes back, so a question still finds its passage; a query of
 * nothing but common words is kept whole.
 */
async function telling(store: Pick<RetrievalStore, 'termCounts'>, query: string): Promise<string> {
  const { words } = searchTerms(query);
  if (words.length < 2) return query;
  const { total, counts } = await store.termCounts({ terms: words });
  const count = (w: string) => counts.get(w) ?? 0;
  const common = (w: string) => count(w) > total * COMMON_SHARE && count(w) > COMMON_AT_LEAST;
  const kept = words.filter((w) => !common(w));
  if (kept.length === 0) return query;
  if (kept.every((w) => count(w) === 0)) {
    const rarest = words.filter(common).sort((a, b) => count(a) - count(b))[0];
    kept.push(rarest);
  }
  return kept.join(' ');
}

/** Reciprocal rank fusion of rankings (best first); ties keep the first ranking's order. */
export function fuse(rankings: number[][]): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}

/** A short passage with the passages before and after it on its page, joined by their line numbers. */
async function withNeighbours(store: RetrievalStore, chunk: StoredChunk): Promise<{ text: string; lineStart: number; lineEnd: number }> {
  const around = [
    await store.chunkAt({ fileId: chunk.fileId, seq: chunk.seq - 1 }),
    chunk,
    await store.chunkAt({ fileId: chunk.fileId, seq: chunk.seq + 1 }),
  ].filter((c): c is StoredChunk => c !== undefined && c.page === chunk.page);
  const lines = new Map<number, string>();
  for (const c of around) c.text.split('\n').forEach((line, i) => lines.set(c.lineStart + i, line));
  const start = Math.min(...around.map((c) => c.lineStart));
  const end = Math.max(...around.map((c) => c.lineEnd));
  const text: string[] = [];
  for (let no = start; no <= end; no++) text.push(lines.get(no) ?? '');
  return { text: text.join('\n').trim(), lineStart: start, lineEnd: end };
}
