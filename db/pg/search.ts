import type { WordMatch } from '../rows';
import { MAX_SCORED, RECENCY_HALF_LIFE_MS, type IndexHit, type SearchFilters, type SourceIds } from '../queries/search';

/**
 * History search on PostgreSQL: the same questions as db/queries/search.ts asks of SQLite's FTS5
 * index, asked of the search_index table of migration 0001_search (a tsvector per message,
 * attachment, title and turn's thinking, GIN-indexed), with the same answers: the same words
 * match (folded case and accents, any language, never stemmed), all of them or any, the last as
 * a prefix while it is typed; ranked by how well they match (ts_rank_cd, where SQLite has bm25)
 * weighed by the same recency half-life; a query matching more than MAX_SCORED rows is ranked by
 * recency alone, as there. Snippets are cut from the source text by lib/data/search, as on SQLite.
 */

/** What runs a query: a pool, or one of its connections (inside a transaction). */
export type Queryable = { query<R>(text: string, params?: unknown[]): Promise<{ rows: R[] }> };

/** A word as a quoted tsquery operand: nothing in it is tsquery syntax. */
const operand = (word: string) => `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * A match as a tsquery expression on parameters from $`first` on: each word a phrase of the
 * lexemes the parser makes of it (a word such as "x^2" is two lexemes next to each other, as
 * FTS5's tokenizer would find them), the last one with :* when it is also a prefix.
 */
export function tsQuery(match: WordMatch, first: number): { sql: string; params: string[] } {
  const params: string[] = [];
  const parts = match.words.map((word, i) => {
    const n = first + params.length;
    if (match.prefix && i === match.words.length - 1) {
      params.push(`${operand(word)}:*`);
      return `to_tsquery('hearth_words', $${n})`;
    }
    params.push(word);
    return `phraseto_tsquery('hearth_words', $${n})`;
  });
  return { sql: `(${parts.join(match.anyWord ? ' || ' : ' && ')})`, params };
}

/** The WHERE clause and its parameters for a match and filters. */
function conditions(match: WordMatch, filters: SearchFilters) {
  const query = tsQuery(match, 1);
  const params: unknown[] = [...query.params];
  const where = [`words @@ ${query.sql}`, "(kind <> 'attachment' OR thread_id IS NOT NULL)"];
  if (!filters.thinking) where.push("kind <> 'thinking'");
  const filter = (clause: (n: string) => string, key: Exclude<keyof SearchFilters, 'thinking'>) => {
    const value = filters[key];
    if (value === undefined || value === '') return;
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  filter((n) => `thread_id = ${n}`, 'threadId');
  filter((n) => `thread_id <> ${n}`, 'excludeThreadId');
  filter((n) => `role = ${n}`, 'role');
  filter((n) => `created_at >= ${n}`, 'from');
  filter((n) => `created_at < ${n}`, 'to');
  return { where: where.join(' AND '), params, tsquery: query.sql };
}

type Row = { kind: IndexHit['kind']; refId: string; threadId: string; role: IndexHit['role']; createdAt: string; score: number };
const hit = (r: Row): IndexHit => ({ ...r, createdAt: Number(r.createdAt), score: Number(r.score) });
const COLUMNS = 'kind, ref_id AS "refId", thread_id AS "threadId", role, created_at AS "createdAt"';

export function pgSearchQueries(db: Queryable) {
  return {
    /** Hits for a match, best first (score: lower is better, as bm25's on SQLite). */
    async searchIndex({ match, filters = {}, limit, now }: { match: WordMatch; filters?: SearchFilters; limit: number; now: number }) {
      const { where, params, tsquery } = conditions(match, filters);
      const newest = await db.query<Row>(
        `SELECT ${COLUMNS}, 0 AS score FROM search_index WHERE ${where} ORDER BY id DESC LIMIT ${MAX_SCORED + 1}`,
        params,
      );
      if (newest.rows.length > MAX_SCORED)
        return newest.rows
          .slice(0, MAX_SCORED)
          .map(hit)
          .sort((a, b) => b.createdAt - a.createdAt)
          .slice(0, limit);
      const scored = await db.query<Row>(
        `SELECT ${COLUMNS},
           -ts_rank_cd(words, ${tsquery}, 1) / (1.0 + greatest(0, $${params.length + 1}::float8 - created_at) / ${RECENCY_HALF_LIFE_MS}.0) AS score
         FROM search_index WHERE ${where} ORDER BY score, id DESC LIMIT $${params.length + 2}`,
        [...params, now, limit],
      );
      return scored.rows.map(hit);
    },

    /** The newest rows a match finds, unranked. */
    async newestMatches({ match, filters = {}, limit }: { match: WordMatch; filters?: SearchFilters; limit: number }) {
      const { where, params } = conditions(match, filters);
      const found = await db.query<Row>(
        `SELECT ${COLUMNS}, 0 AS score FROM search_index WHERE ${where} ORDER BY id DESC LIMIT $${params.length + 1}`,
        [...params, limit],
      );
      return found.rows.map(hit);
    },

    /** The text behind hits, as db/queries/search.ts gives it. */
    async searchSources({ messageIds, attachmentIds, threadIds, turnIds = [] }: SourceIds) {
      const [messages, attachments, threads, thinking] = await Promise.all([
        messageIds.length
          ? db.query<{ id: string; threadId: string; role: 'user' | 'assistant'; content: string; turnId: string | null }>(
              'SELECT id, thread_id AS "threadId", role, content, turn_id AS "turnId" FROM messages WHERE id = ANY($1)',
              [messageIds],
            )
          : { rows: [] },
        attachmentIds.length
          ? db.query<{ id: string; name: string; text: string; messageId: string | null }>(
              'SELECT id, name, text, message_id AS "messageId" FROM attachments WHERE id = ANY($1)',
              [attachmentIds],
            )
          : { rows: [] },
        threadIds.length
          ? db.query<{ id: string; title: string }>('SELECT id, title FROM threads WHERE id = ANY($1)', [threadIds])
          : { rows: [] },
        turnIds.length
          ? db.query<{ id: string; messageId: string | null; text: string | null }>(
              'SELECT id, assistant_message_id AS "messageId", turn_thinking(events) AS text FROM turns WHERE id = ANY($1)',
              [turnIds],
            )
          : { rows: [] },
      ]);
      return {
        messages: messages.rows,
        attachments: attachments.rows,
        threads: threads.rows,
        ...(turnIds.length ? { thinking: thinking.rows.map((t) => ({ ...t, text: t.text ?? '' })) } : {}),
      };
    },
  };
}
