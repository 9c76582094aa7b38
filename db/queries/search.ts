import type { WordMatch } from '../rows';
import type { Db } from '../client';
import { fts5Match } from './fts';

/**
 * Full-text search over the index built by migration 0003: message text, attachment names
 * and text, thread titles. Ranked by bm25 weighed by recency: a hit loses half its weight
 * over RECENCY_HALF_LIFE_MS, so among equally good matches the recent ones come first.
 * A query that matches a large part of the library is ranked by recency alone (see MAX_SCORED).
 */

export type SearchKind = 'message' | 'attachment' | 'title' | 'thinking';

export type SearchFilters = {
  threadId?: string;
  /** Everything but this thread (the search_conversations tool leaves out the current one). */
  excludeThreadId?: string;
  role?: 'user' | 'assistant';
  /** Epoch ms, inclusive lower and exclusive upper bound. */
  from?: number;
  to?: number;
  /** The models' thinking too (migration 0015): left out unless asked for. */
  thinking?: boolean;
};

export type IndexHit = {
  kind: SearchKind;
  refId: string;
  threadId: string;
  role: 'user' | 'assistant' | null;
  createdAt: number;
  score: number;
};

/** The rows whose text a page of hits shows: messages, attachments, thread titles, turns' thinking. */
export type SourceIds = { messageIds: string[]; attachmentIds: string[]; threadIds: string[]; turnIds?: string[] };

/** Half the weight after this long (about six months). */
export const RECENCY_HALF_LIFE_MS = 182 * 24 * 3600 * 1000;

/**
 * A query with more matches than this is ranked by recency alone, among its newest matches
 * (which FTS5 finds by walking its lists backwards and stopping). bm25 weighs each word by how
 * rare it is, which takes reading every match of it: 400 ms for a word in 826,000 of 1,000,000
 * messages, 17 ms even when only 500 rows are scored. For a word that common the weight says
 * next to nothing, so nothing is lost. A query with fewer matches is ranked whole by bm25.
 */
export const MAX_SCORED = 500;

/** The WHERE clause and its parameters for a match and filters. */
function conditions(match: WordMatch, filters: SearchFilters) {
  const where = ['search_index MATCH @match', "(kind != 'attachment' OR thread_id IS NOT NULL)"];
  if (!filters.thinking) where.push("kind != 'thinking'");
  const params: Record<string, string | number> = { match: fts5Match(match) };
  const filter = (clause: string, key: Exclude<keyof SearchFilters, 'thinking'>) => {
    const value = filters[key];
    if (value === undefined || value === '') return;
    where.push(clause);
    params[key] = value;
  };
  filter('thread_id = @threadId', 'threadId');
  filter('thread_id != @excludeThreadId', 'excludeThreadId');
  filter('role = @role', 'role');
  filter('created_at >= @from', 'from');
  filter('created_at < @to', 'to');
  return { where, params };
}

export function searchQueries(db: Db) {
  const sqlite = db.$client;
  // compiled once: the database keeps each statement (db/client.ts)
  const prepared = (sql: string) => sqlite.prepare(sql);

  return {
    /** Hits for a match (lib/data/search/query.ts), best first. */
    searchIndex({
      match,
      filters = {},
      limit,
      now,
    }: {
      match: WordMatch;
      filters?: SearchFilters;
      limit: number;
      now: number;
    }): IndexHit[] {
      const { where, params } = conditions(match, filters);
      Object.assign(params, { limit, now });
      const columns = 'kind, ref_id AS refId, thread_id AS threadId, role, created_at AS createdAt';
      const newest = prepared(
        `SELECT ${columns}, 0 AS score FROM search_index WHERE ${where.join(' AND ')} ORDER BY rowid DESC LIMIT ${MAX_SCORED + 1}`,
      ).all(params) as IndexHit[];
      if (newest.length > MAX_SCORED)
        return newest
          .slice(0, MAX_SCORED)
          .sort((a, b) => b.createdAt - a.createdAt)
          .slice(0, limit);
      const sql = `SELECT ${columns}, bm25(search_index) / (1.0 + max(0, @now - created_at) / ${RECENCY_HALF_LIFE_MS}.0) AS score
        FROM search_index WHERE ${where.join(' AND ')} ORDER BY score LIMIT @limit`;
      return prepared(sql).all(params) as IndexHit[];
    },

    /** The newest rows a match finds (FTS5 walks its lists backwards and stops), unranked. */
    newestMatches({ match, filters = {}, limit }: { match: WordMatch; filters?: SearchFilters; limit: number }): IndexHit[] {
      const { where, params } = conditions(match, filters);
      return prepared(
        `SELECT kind, ref_id AS refId, thread_id AS threadId, role, created_at AS createdAt, 0 AS score FROM search_index WHERE ${where.join(' AND ')} ORDER BY rowid DESC LIMIT @limit`,
      ).all({
        ...params,
        limit,
      }) as IndexHit[];
    },

    /** The text behind hits: messages, attachments (with the message they came with), thread titles, turns' thinking (with their answer). */
    searchSources({ messageIds, attachmentIds, threadIds, turnIds = [] }: SourceIds) {
      const list = (ids: string[]) => JSON.stringify(ids);
      const messages = messageIds.length
        ? (prepared(
            'SELECT id, thread_id AS threadId, role, content, turn_id AS turnId FROM messages WHERE id IN (SELECT value FROM json_each(?))',
          ).all(list(messageIds)) as {
            id: string;
            threadId: string;
            role: 'user' | 'assistant';
            content: string;
            turnId: string | null;
          }[])
        : [];
      const attachments = attachmentIds.length
        ? (prepared('SELECT id, name, text, message_id AS messageId FROM attachments WHERE id IN (SELECT value FROM json_each(?))').all(
            list(attachmentIds),
          ) as {
            id: string;
            name: string;
            text: string;
            messageId: string | null;
          }[])
        : [];
      const threads = threadIds.length
        ? (prepared('SELECT id, title FROM threads WHERE id IN (SELECT value FROM json_each(?))').all(list(threadIds)) as {
            id: string;
            title: string;
          }[])
        : [];
      const thinking = turnIds.length
        ? (
            prepared(
              `SELECT t.id, t.assistant_message_id AS messageId,
                 (SELECT group_concat(json_extract(e.value, '$[1].text'), char(10)) FROM json_each(t.events) e
                   WHERE json_extract(e.value, '$[1].type') = 'thinking') AS text
               FROM turns t WHERE t.id IN (SELECT value FROM json_each(?))`,
            ).all(list(turnIds)) as { id: string; messageId: string | null; text: string | null }[]
          ).map((t) => ({ ...t, text: t.text ?? '' }))
        : [];
      return { messages, attachments, threads, ...(turnIds.length ? { thinking } : {}) };
    },
  };
}
