// Written by `npm run db:pg-schema` from db/schema.ts (the one definition of the tables): do not edit.
// db/pg/generate-schema.ts says how each SQLite type is carried over.
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, boolean, customType, index, json, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type * as sqlite from './schema';

/** A row of the SQLite table: the TypeScript types of enum and JSON columns come from there. */
type Row<T extends keyof typeof sqlite> = (typeof sqlite)[T] extends { $inferSelect: infer R } ? R : never;

/** Bytes (a vector): Buffer both ways, as better-sqlite3 gives a blob. */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const attachments = pgTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id').references((): AnyPgColumn => messages.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    text: text('text').notNull(),
    kind: text('kind').$type<Row<'attachments'>['kind']>().notNull().default('text'),
    chars: bigint('chars', { mode: 'number' }).notNull().default(0),
    lines: bigint('lines', { mode: 'number' }).notNull().default(0),
    width: bigint('width', { mode: 'number' }),
    height: bigint('height', { mode: 'number' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    searchRowid: bigint('search_rowid', { mode: 'number' }),
  },
  (t) => [index('attachments_message_idx').on(t.messageId)],
);

export const chunkVectors = pgTable('chunk_vectors', {
  chunkId: bigint('chunk_id', { mode: 'number' })
    .primaryKey()
    .references((): AnyPgColumn => docChunks.id, { onDelete: 'cascade' }),
  vector: bytea('vector').notNull(),
});

export const collectionFiles = pgTable(
  'collection_files',
  {
    id: text('id').primaryKey(),
    collectionId: text('collection_id')
      .notNull()
      .references((): AnyPgColumn => collections.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    kind: text('kind').$type<Row<'collectionFiles'>['kind']>().notNull(),
    status: text('status').$type<Row<'collectionFiles'>['status']>().notNull().default('queued'),
    error: text('error'),
    chunks: bigint('chunks', { mode: 'number' }).notNull().default(0),
    embedded: bigint('embedded', { mode: 'number' }).notNull().default(0),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('collection_files_collection_idx').on(t.collectionId, t.createdAt), index('collection_files_status_idx').on(t.status)],
);

export const collections = pgTable('collections', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  everyThread: boolean('every_thread').notNull().default(false),
  shared: boolean('shared').notNull().default(false),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

export const decisionRecords = pgTable(
  'decision_records',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    layerId: text('layer_id').notNull(),
    scope: text('scope').$type<Row<'decisionRecords'>['scope']>().notNull(),
    scopeKey: text('scope_key').notNull(),
    turnId: text('turn_id'),
    threadId: text('thread_id'),
    stepId: text('step_id').notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
    modelId: text('model_id').notNull(),
    source: text('source').$type<Row<'decisionRecords'>['source']>().notNull(),
    answers: text('answers').notNull(),
  },
  (t) => [index('decision_records_scope_idx').on(t.layerId, t.scope, t.scopeKey, t.id)],
);

export const docChunks = pgTable(
  'doc_chunks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    fileId: text('file_id')
      .notNull()
      .references((): AnyPgColumn => collectionFiles.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    text: text('text').notNull(),
    page: bigint('page', { mode: 'number' }),
    lineStart: bigint('line_start', { mode: 'number' }).notNull(),
    lineEnd: bigint('line_end', { mode: 'number' }).notNull(),
    embeddedWith: text('embedded_with'),
  },
  (t) => [index('doc_chunks_file_idx').on(t.fileId, t.seq), index('doc_chunks_unembedded_idx').on(t.embeddedWith)],
);

export const folders = pgTable('folders', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
});

export const hostPenalties = pgTable('host_penalties', {
  host: text('host').primaryKey(),
  until: bigint('until', { mode: 'number' }).notNull(),
  trips: bigint('trips', { mode: 'number' }).notNull().default(0),
  reason: text('reason').notNull().default(''),
});

export const hostSpend = pgTable(
  'host_spend',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    host: text('host').notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  (t) => [index('host_spend_idx').on(t.host, t.at)],
);

export const invites = pgTable('invites', {
  id: text('id').primaryKey(),
  role: text('role').$type<Row<'invites'>['role']>().notNull(),
  createdBy: text('created_by').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
  usedBy: text('used_by'),
  usedAt: bigint('used_at', { mode: 'number' }),
});

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    scope: text('scope').$type<Row<'loginAttempts'>['scope']>().notNull(),
    key: text('key').notNull(),
    at: bigint('at', { mode: 'number' }).notNull(),
    cleared: boolean('cleared').notNull().default(false),
  },
  (t) => [index('login_attempts_key_idx').on(t.scope, t.key, t.at), index('login_attempts_at_idx').on(t.scope, t.at)],
);

export const memories = pgTable('memories', {
  id: text('id').primaryKey(),
  text: text('text').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

export const messageVectors = pgTable('message_vectors', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
  messageId: text('message_id')
    .notNull()
    .unique('message_vectors_message_id_unique')
    .references((): AnyPgColumn => messages.id, { onDelete: 'cascade' }),
  vector: bytea('vector').notNull(),
});

export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references((): AnyPgColumn => threads.id, { onDelete: 'cascade' }),
    turnId: text('turn_id'),
    parentId: text('parent_id'),
    role: text('role').$type<Row<'messages'>['role']>().notNull(),
    content: text('content').notNull(),
    status: text('status').$type<Row<'messages'>['status']>().notNull().default('complete'),
    errorCode: text('error_code'),
    contextBlock: text('context_block'),
    model: text('model'),
    rating: bigint('rating', { mode: 'number' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    searchRowid: bigint('search_rowid', { mode: 'number' }),
  },
  (t) => [
    index('messages_thread_idx').on(t.threadId, t.createdAt),
    index('messages_rated_idx')
      .on(t.model, t.rating)
      .where(sql`rating is not null`),
  ],
);

export const modelQueue = pgTable(
  'model_queue',
  {
    turnId: text('turn_id').primaryKey(),
    process: text('process').notNull(),
    threadId: text('thread_id').notNull(),
    person: text('person'),
    model: text('model'),
    avoidUrl: text('avoid_url'),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    serverUrl: text('server_url'),
    slot: bigint('slot', { mode: 'number' }),
    refused: boolean('refused').notNull().default(false),
    leaseUntil: bigint('lease_until', { mode: 'number' }).notNull(),
  },
  (t) => [index('model_queue_lease_idx').on(t.leaseUntil)],
);

export const prompts = pgTable('prompts', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique('prompts_name_unique'),
  text: text('text').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    expiresAt: bigint('expires_at', { mode: 'number' }).notNull(),
    userAgent: text('user_agent'),
    address: text('address'),
  },
  (t) => [index('sessions_expires_idx').on(t.expiresAt), index('sessions_user_idx').on(t.userId)],
);

export const settingProposals = pgTable('setting_proposals', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  proposedAt: bigint('proposed_at', { mode: 'number' }).notNull(),
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
});

export const threadCollections = pgTable(
  'thread_collections',
  {
    threadId: text('thread_id')
      .notNull()
      .references((): AnyPgColumn => threads.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id')
      .notNull()
      .references((): AnyPgColumn => collections.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.collectionId] }), index('thread_collections_collection_idx').on(t.collectionId)],
);

export const threads = pgTable(
  'threads',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull().default(''),
    titleSource: text('title_source').$type<Row<'threads'>['titleSource']>().notNull().default('auto'),
    systemPrompt: text('system_prompt').notNull().default(''),
    thinking: text('thinking').$type<Row<'threads'>['thinking']>(),
    disabledTools: json('disabled_tools').$type<Row<'threads'>['disabledTools']>(),
    sampling: json('sampling').$type<Row<'threads'>['sampling']>(),
    pinned: boolean('pinned').notNull().default(false),
    currentLeafId: text('current_leaf_id'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    searchRowid: bigint('search_rowid', { mode: 'number' }),
    folderId: text('folder_id'),
    archived: boolean('archived').notNull().default(false),
    model: text('model'),
  },
  (t) => [index('threads_updated_idx').on(t.pinned, t.updatedAt, t.id), index('threads_folder_idx').on(t.folderId)],
);

export const toolCalls = pgTable(
  'tool_calls',
  {
    id: text('id').primaryKey(),
    turnId: text('turn_id')
      .notNull()
      .references((): AnyPgColumn => turns.id, { onDelete: 'cascade' }),
    threadId: text('thread_id').notNull(),
    name: text('name').notNull(),
    arguments: text('arguments').notNull(),
    ok: boolean('ok').notNull(),
    result: text('result').notNull(),
    repeat: boolean('repeat').notNull().default(false),
    ms: bigint('ms', { mode: 'number' }).notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [index('tool_calls_turn_idx').on(t.turnId, t.createdAt), index('tool_calls_thread_idx').on(t.threadId, t.createdAt)],
);

export const turnEvents = pgTable(
  'turn_events',
  {
    turnId: text('turn_id')
      .notNull()
      .references((): AnyPgColumn => turns.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    data: text('data').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.seq] })],
);

export const turnSteps = pgTable(
  'turn_steps',
  {
    turnId: text('turn_id')
      .notNull()
      .references((): AnyPgColumn => turns.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    data: text('data').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.seq] })],
);

export const turns = pgTable(
  'turns',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references((): AnyPgColumn => threads.id, { onDelete: 'cascade' }),
    userMessageId: text('user_message_id').notNull(),
    assistantMessageId: text('assistant_message_id'),
    status: text('status').$type<Row<'turns'>['status']>().notNull(),
    stats: json('stats').$type<Row<'turns'>['stats']>(),
    events: text('events'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    finishedAt: bigint('finished_at', { mode: 'number' }),
    searchRowid: bigint('search_rowid', { mode: 'number' }),
    leaseOwner: text('lease_owner'),
    leaseUntil: bigint('lease_until', { mode: 'number' }),
  },
  (t) => [index('turns_thread_idx').on(t.threadId, t.createdAt), index('turns_status_idx').on(t.status)],
);

export const usage = pgTable(
  'usage',
  {
    day: text('day').notNull(),
    model: text('model').notNull(),
    turns: bigint('turns', { mode: 'number' }).notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    generatedTokens: bigint('generated_tokens', { mode: 'number' }).notNull().default(0),
    modelMs: bigint('model_ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.model] })],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    role: text('role').$type<Row<'users'>['role']>().notNull(),
    passwordHash: text('password_hash'),
    disabled: boolean('disabled').notNull().default(false),
    library: text('library').notNull(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    turnsPerDay: bigint('turns_per_day', { mode: 'number' }),
    fuelPerTurn: bigint('fuel_per_turn', { mode: 'number' }),
    oidcSubject: text('oidc_subject'),
    email: text('email'),
    proxyUser: text('proxy_user'),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(t.username),
    uniqueIndex('users_oidc_subject_unique').on(t.oidcSubject),
    uniqueIndex('users_proxy_user_unique').on(t.proxyUser),
  ],
);

export const vectorIndex = pgTable('vector_index', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  model: text('model').notNull(),
  dims: bigint('dims', { mode: 'number' }).notNull(),
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
});
