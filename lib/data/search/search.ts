import type { Awaitable } from '@/lib/shared/awaitable';
import type { IndexHit, SearchFilters, SearchKind, SourceIds } from '@/db/queries/search';
import { markdownToPlain } from '@/lib/shared/markdown/plain';
import { searchTerms, snippetOf, wordMatch, type WordMatch } from './query';

/**
 * Search over the whole library (messages, attached files, thread titles), shared by
 * GET /api/search and the search_conversations tool: the index finds and ranks, this adds
 * what a person or the model reads (the thread's title, a snippet with the matches marked).
 */

export type SearchHit = {
  kind: SearchKind;
  threadId: string;
  threadTitle: string;
  /** The message to open: the hit itself, or the one a file was sent with; null for a title. */
  messageId: string | null;
  role: 'user' | 'assistant' | null;
  createdAt: number;
  attachment?: { id: string; name: string };
  snippet: string;
  /** [start, end) of each matching word in the snippet. */
  highlights: [number, number][];
  /** The turn of a message hit (for the other side of the exchange). */
  turnId?: string | null;
  /** Found by meaning (the embeddings) and not by its words. */
  byMeaning?: true;
};

/** What a search asks of a library's store: db/queries/search.ts on SQLite, db/pg/search.ts on PostgreSQL. */
export type SearchStore = {
  searchIndex(args: { match: WordMatch; filters?: SearchFilters; limit: number; now: number }): Awaitable<IndexHit[]>;
  newestMatches(args: { match: WordMatch; filters?: SearchFilters; limit: number }): Awaitable<IndexHit[]>;
  searchSources(args: SourceIds): Awaitable<{
    messages: { id: string; threadId: string; role: 'user' | 'assistant'; content: string; turnId: string | null }[];
    attachments: { id: string; name: string; text: string; messageId: string | null }[];
    threads: { id: string; title: string }[];
    thinking?: { id: string; messageId: string | null; text: string }[];
  }>;
};

export type SearchArgs = {
  query: string;
  filters?: SearchFilters;
  limit: number;
  now: number;
  /** Any word may match instead of all of them (the tool's fallback for a model's wordy query). */
  anyWord?: boolean;
  snippetChars?: number;
};

/**
 * A query whose last word may still be being typed: the words as they are, ranked, come first;
 * the rest of the page is filled with the newest rows where the last word starts another one
 * ("castle" finds "castles"). Ranking the completions too would merge every word the prefix
 * starts twice (once to match, once for bm25's statistics); newest first merges it once.
 */
async function asYouType(store: SearchStore, args: SearchArgs, prefixMatch: WordMatch) {
  const whole = wordMatch(args.query, { anyWord: args.anyWord, prefix: false })!;
  const exact = await store.searchIndex({ match: whole, filters: args.filters, limit: args.limit, now: args.now });
  if (exact.length >= args.limit) return exact;
  const seen = new Set(exact.map((h) => `${h.kind}:${h.refId}`));
  const more = (await store.newestMatches({ match: prefixMatch, filters: args.filters, limit: args.limit + exact.length }))
    .filter((h) => !seen.has(`${h.kind}:${h.refId}`))
    .sort((a, b) => b.createdAt - a.createdAt);
  return [...exact, ...more].slice(0, args.limit);
}

export async function searchLibrary(store: SearchStore, args: SearchArgs): Promise<SearchHit[]> {
  const match = wordMatch(args.query, { anyWord: args.anyWord });
  if (!match) return [];
  const terms = searchTerms(args.query);
  const cut = (text: string) => snippetOf(text, terms, args.snippetChars);
  const hits = terms.prefix
    ? await asYouType(store, args, match)
    : await store.searchIndex({ match, filters: args.filters, limit: args.limit, now: args.now });
  const ids = (kind: SearchKind) => hits.filter((h) => h.kind === kind).map((h) => h.refId);
  const sources = await store.searchSources({
    messageIds: ids('message'),
    attachmentIds: ids('attachment'),
    threadIds: [...new Set(hits.map((h) => h.threadId))],
    turnIds: ids('thinking'),
  });
  const thinking = new Map((sources.thinking ?? []).map((t) => [t.id, t]));
  const messages = new Map(sources.messages.map((m) => [m.id, m]));
  const attachments = new Map(sources.attachments.map((a) => [a.id, a]));
  const titles = new Map(sources.threads.map((t) => [t.id, t.title]));
  return hits.flatMap((h): SearchHit[] => {
    const threadTitle = titles.get(h.threadId);
    if (threadTitle === undefined) return [];
    const base = { kind: h.kind, threadId: h.threadId, threadTitle, role: h.role, createdAt: h.createdAt };
    if (h.kind === 'message') {
      const m = messages.get(h.refId);
      // A message reads as its words in a snippet, not its Markdown (**bold**, [links](…)).
      return m ? [{ ...base, messageId: m.id, turnId: m.turnId, ...cut(markdownToPlain(m.content)) }] : [];
    }
    if (h.kind === 'attachment') {
      const a = attachments.get(h.refId);
      return a ? [{ ...base, messageId: a.messageId, attachment: { id: a.id, name: a.name }, ...cut(`${a.name}\n${a.text}`) }] : [];
    }
    if (h.kind === 'thinking') {
      // A turn's thinking opens at the answer it led to.
      const t = thinking.get(h.refId);
      return t ? [{ ...base, messageId: t.messageId, turnId: h.refId, ...cut(t.text) }] : [];
    }
    return [{ ...base, messageId: null, ...cut(threadTitle) }];
  });
}

/** A past message found near the query in meaning (the embeddings), closest first. */
export type MeaningHit = {
  id: string;
  threadId: string;
  title: string;
  role: 'user' | 'assistant' | 'system' | 'tool';
  content: string;
  createdAt: number;
  similarity: number;
};

/** Reciprocal rank fusion's constant, as in the knowledge search (lib/data/knowledge/retrieve.ts). */
const FUSION_K = 60;

/**
 * The search by words and the search by meaning as one list (reciprocal rank fusion): a
 * message both find keeps its snippet with the words marked and rises; one found only by
 * meaning shows its opening and says so (byMeaning), since none of its words may match.
 * Filters apply to both, as the search by words applied them in its query.
 */
export function withMeaning(words: SearchHit[], near: MeaningHit[], args: { filters?: SearchFilters; limit: number }): SearchHit[] {
  const f = args.filters ?? {};
  const kept = near.filter(
    (m) =>
      (m.role === 'user' || m.role === 'assistant') &&
      (f.threadId === undefined || m.threadId === f.threadId) &&
      (f.role === undefined || m.role === f.role) &&
      (f.from === undefined || m.createdAt >= f.from) &&
      (f.to === undefined || m.createdAt < f.to),
  );
  if (kept.length === 0) return words.slice(0, args.limit);
  const score = new Map<string, { hit: SearchHit; score: number }>();
  const keyOf = (h: SearchHit) =>
    h.kind === 'message' && h.messageId
      ? `message:${h.messageId}`
      : `${h.kind}:${h.threadId}:${h.messageId}:${h.attachment?.id ?? ''}:${h.turnId ?? ''}`;
  words.forEach((hit, i) => score.set(keyOf(hit), { hit, score: 1 / (FUSION_K + i + 1) }));
  kept.forEach((m, i) => {
    const add = 1 / (FUSION_K + i + 1);
    const known = score.get(`message:${m.id}`);
    if (known) known.score += add;
    else
      score.set(`message:${m.id}`, {
        score: add,
        hit: {
          kind: 'message',
          threadId: m.threadId,
          threadTitle: m.title,
          messageId: m.id,
          role: m.role as 'user' | 'assistant',
          createdAt: m.createdAt,
          snippet: openingOf(markdownToPlain(m.content)),
          highlights: [],
          byMeaning: true,
        },
      });
  });
  return [...score.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, args.limit)
    .map((s) => s.hit);
}

/** A message's first words, for a hit with no matched words to centre a snippet on. */
function openingOf(text: string, chars = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= chars ? flat : `${flat.slice(0, chars).replace(/\s+\S*$/, '')}…`;
}
