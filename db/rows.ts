/**
 * The rows Hearth keeps, as the code on both sides of db/ sees them: one row type per table
 * (drizzle infers each from db/schema.ts) and the shapes the queries return that are not a
 * table's row. lib/ imports its row types from here, never from the schema or a query.
 */
import type {
  attachments,
  collectionFiles,
  collections,
  decisionRecords,
  folders,
  memories,
  messages,
  prompts,
  threads,
  toolCalls,
  turns,
} from './schema';

export type Thread = typeof threads.$inferSelect;
export type Folder = typeof folders.$inferSelect;
export type Message = typeof messages.$inferSelect;
export type Turn = typeof turns.$inferSelect;
export type ToolCallRow = typeof toolCalls.$inferSelect;
export type Attachment = typeof attachments.$inferSelect;
export type Prompt = typeof prompts.$inferSelect;
export type Memory = typeof memories.$inferSelect;
export type DecisionRecordRow = typeof decisionRecords.$inferSelect;
export type Collection = typeof collections.$inferSelect;
export type CollectionFile = typeof collectionFiles.$inferSelect;

/** A passage as the database keeps it. */
export type StoredChunk = {
  id: number;
  fileId: string;
  seq: number;
  text: string;
  page: number | null;
  lineStart: number;
  lineEnd: number;
};

/** A passage found, with its file. */
export type ChunkHit = StoredChunk & { fileName: string; collectionId: string; sha256: string };

/** A search of passages by meaning: the (normalised) vector, where, how many, and how many candidates to rank again exactly. */
export type ChunksNear = { vector: Float32Array; collectionIds: string[]; limit: number; candidates: number };

/**
 * What a search asks an index for, in no engine's syntax (lib/data/search/query.ts makes it from
 * a person's words): the words, all of them or any, and whether the last also matches as a
 * prefix. Each engine's store writes it in its own: FTS5's MATCH (db/queries/fts.ts), PostgreSQL's
 * tsquery (db/pg/search.ts).
 */
export type WordMatch = { words: string[]; anyWord: boolean; prefix: boolean };
