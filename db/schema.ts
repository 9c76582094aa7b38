import type { Sampling } from '../lib/contract/sampling';
import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
// relative, not '@/': drizzle-kit reads this file without the project's paths
import { collectionFileStatuses, fileKinds, messageStatuses, roles, turnStatuses } from '../lib/contract/statuses';

export {
  collectionFileStatuses,
  messageStatuses,
  turnStatuses,
  type CollectionFileStatus,
  type MessageStatus,
  type TurnStatus,
} from '../lib/contract/statuses';

/** Every table Hearth keeps. Times are epoch milliseconds; JSON columns hold validated data. */

export const threads = sqliteTable(
  'threads',
  {
    id: text('id').primaryKey(),
    title: text('title').notNull().default(''),
    /** Who wrote the title: the first words of the first message, the model, or the user (never overwritten). */
    titleSource: text('title_source', { enum: ['auto', 'model', 'user'] })
      .notNull()
      .default('auto'),
    systemPrompt: text('system_prompt').notNull().default(''),
    /** Thinking for this thread ('default', 'on', 'off'); null follows the Settings page. */
    thinking: text('thinking', { enum: ['default', 'on', 'off'] }),
    /** Tools switched off in this thread only, by the name the model sees. */
    disabledTools: text('disabled_tools', { mode: 'json' }).$type<string[]>(),
    /** Sampling for its replies (lib/contract/sampling.ts); null: each server's defaults. */
    sampling: text('sampling', { mode: 'json' }).$type<Sampling>(),
    pinned: integer('pinned', { mode: 'boolean' }).notNull().default(false),
    /**
     * The branch shown: the last message of the path the page shows and the next message
     * follows (lib/turns/conversation/tree.ts). Null, or a message that is gone: the newest message.
     */
    currentLeafId: text('current_leaf_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    /** This row's entry in the search index (set by the triggers of migration 0003; see db/queries/search.ts). */
    searchRowid: integer('search_rowid'),
    /** The folder it is in (one level, at most one); null: none. Deleting a folder sets it back to null (db/queries/folders.ts). */
    folderId: text('folder_id'),
    /** Out of the thread list, still searchable, in the Archive view. */
    archived: integer('archived', { mode: 'boolean' }).notNull().default(false),
    /** The model this thread's turns ask for (an id GET /api/models lists); null: the default of Settings. */
    model: text('model'),
  },
  (t) => [index('threads_updated_idx').on(t.pinned, t.updatedAt, t.id), index('threads_folder_idx').on(t.folderId)],
);

/** The user's folders for threads: one level, named. */
export const folders = sqliteTable('folders', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
});

export const messages = sqliteTable(
  'messages',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    turnId: text('turn_id'),
    /**
     * The message this one follows; null for a thread's first message (and for the first of a
     * branch made by editing it). A thread is a tree: regenerating an answer or editing a
     * question adds a sibling, and the model sees the path from the root to the message it
     * answers. No foreign key: a branch is deleted by its ids (a cascade down a long thread
     * would pass SQLite's trigger depth).
     */
    parentId: text('parent_id'),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    content: text('content').notNull(),
    status: text('status', { enum: messageStatuses }).notNull().default('complete'),
    /** For an assistant message that ended badly: the error code. */
    errorCode: text('error_code'),
    /**
     * For a user message: the notes of the context block Hearth sent with it (recalled memory,
     * decisions so far), kept so later turns send it again word for word and the prompt only
     * grows at its end (lib/turns/context/layers.ts renders the block around them).
     */
    contextBlock: text('context_block'),
    /** For an answer: the model that wrote it, as the server named it (null: not known, or written before models were kept). */
    model: text('model'),
    /** For an answer: the user's thumbs, 1 up or -1 down (null: not rated); counted beside the model's scorecard. */
    rating: integer('rating'),
    createdAt: integer('created_at').notNull(),
    /** This row's entry in the search index (set by triggers). */
    searchRowid: integer('search_rowid'),
  },
  // No index on parent_id: a thread's tree is built from its messages in memory (lib/turns/conversation/tree.ts), no query filters by it.
  // The rated answers alone, by model: the model picker's thumbs are counted from this small index, not the whole table.
  (t) => [
    index('messages_thread_idx').on(t.threadId, t.createdAt),
    index('messages_rated_idx')
      .on(t.model, t.rating)
      .where(sql`rating is not null`),
  ],
);

export const turns = sqliteTable(
  'turns',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    userMessageId: text('user_message_id').notNull(),
    assistantMessageId: text('assistant_message_id'),
    status: text('status', { enum: turnStatuses }).notNull(),
    stats: text('stats', { mode: 'json' }),
    /**
     * A finished turn's event log, compacted (lib/turns/supervisor/compact.ts), as one JSON array of
     * [seq, data]: its rows in turn_events are then gone.
     */
    events: text('events'),
    createdAt: integer('created_at').notNull(),
    finishedAt: integer('finished_at'),
    /** The entry of the turn's thinking in the search index (set by the triggers of migration 0015). */
    searchRowid: integer('search_rowid'),
    /**
     * With several Hearth processes on one database (PostgreSQL): the process running the turn,
     * and until when (epoch ms) it holds it; it renews the lease while it runs, and another
     * process takes a queued or running turn over once its lease has lapsed. Unset on SQLite,
     * where one process runs every turn.
     */
    leaseOwner: text('lease_owner'),
    leaseUntil: integer('lease_until'),
  },
  (t) => [index('turns_thread_idx').on(t.threadId, t.createdAt), index('turns_status_idx').on(t.status)],
);

/** The event log of a turn, in order; the SSE stream and its replay read from here. */
export const turnEvents = sqliteTable(
  'turn_events',
  {
    turnId: text('turn_id')
      .notNull()
      .references(() => turns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    data: text('data').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.seq] })],
);

/** The step journal: each completed step of a turn, so a restarted turn can resume without redoing it. */
export const turnSteps = sqliteTable(
  'turn_steps',
  {
    turnId: text('turn_id')
      .notNull()
      .references(() => turns.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    kind: text('kind').notNull(),
    data: text('data').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.turnId, t.seq] })],
);

export const toolCalls = sqliteTable(
  'tool_calls',
  {
    id: text('id').primaryKey(),
    turnId: text('turn_id')
      .notNull()
      .references(() => turns.id, { onDelete: 'cascade' }),
    threadId: text('thread_id').notNull(),
    name: text('name').notNull(),
    arguments: text('arguments').notNull(),
    ok: integer('ok', { mode: 'boolean' }).notNull(),
    result: text('result').notNull(),
    repeat: integer('repeat', { mode: 'boolean' }).notNull().default(false),
    ms: integer('ms').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  // By thread too: a thread's page reads its tool calls, and a library holds many threads' worth.
  (t) => [index('tool_calls_turn_idx').on(t.turnId, t.createdAt), index('tool_calls_thread_idx').on(t.threadId, t.createdAt)],
);

export const attachments = sqliteTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    messageId: text('message_id').references(() => messages.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    /** The beginning of the file's text (what the model's context and the search index see); the whole text is on disk. */
    text: text('text').notNull(),
    /** How the text was read: the file itself ('text'), or extracted from a PDF, Word file or spreadsheet (kept beside it as .txt); an image has none. */
    kind: text('kind', { enum: fileKinds }).notNull().default('text'),
    /** The whole text's length in characters and lines (the context says when it shows less). */
    chars: integer('chars').notNull().default(0),
    lines: integer('lines').notNull().default(0),
    /** An image's size as stored (scaled on upload). */
    width: integer('width'),
    height: integer('height'),
    createdAt: integer('created_at').notNull(),
    /** This row's entry in the search index (set by triggers). */
    searchRowid: integer('search_rowid'),
  },
  (t) => [index('attachments_message_idx').on(t.messageId)],
);

export const memories = sqliteTable('memories', {
  id: text('id').primaryKey(),
  text: text('text').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** Saved prompts: typed as "/name" in the message box, their text takes its place (names are unique). */
export const prompts = sqliteTable('prompts', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  text: text('text').notNull(),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Settings an imported library file carried that change where Hearth sends data or what it runs
 * (lib/settings/proposals.ts): kept here, never in force, until the owner applies each one in
 * the Settings page. A later file's value for the same key replaces the earlier proposal.
 */
export const settingProposals = sqliteTable('setting_proposals', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  proposedAt: integer('proposed_at').notNull(),
});

/** Decision records, one row each; scopeKey is a turn id, a thread id or the resource id. */
export const decisionRecords = sqliteTable(
  'decision_records',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    layerId: text('layer_id').notNull(),
    scope: text('scope', { enum: ['execution', 'thread', 'resource'] }).notNull(),
    scopeKey: text('scope_key').notNull(),
    turnId: text('turn_id'),
    threadId: text('thread_id'),
    stepId: text('step_id').notNull(),
    at: integer('at').notNull(),
    modelId: text('model_id').notNull(),
    source: text('source', { enum: ['native', 'estimated', 'classifier', 'program'] }).notNull(),
    answers: text('answers').notNull(),
  },
  (t) => [index('decision_records_scope_idx').on(t.layerId, t.scope, t.scopeKey, t.id)],
);

/** Outside hosts resting after a refusal or a failure (circuit breaker), kept across restarts. */
export const hostPenalties = sqliteTable('host_penalties', {
  host: text('host').primaryKey(),
  until: integer('until').notNull(),
  trips: integer('trips').notNull().default(0),
  reason: text('reason').notNull().default(''),
});

/** Requests spent per outside host, for rate budgets. */
export const hostSpend = sqliteTable(
  'host_spend',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    host: text('host').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('host_spend_idx').on(t.host, t.at)],
);

/**
 * The people who may log in (lib/services/auth/people.ts). The username is kept as typed in lower
 * case, unique; the password as an scrypt hash (none for a person who signs in another way).
 * A disabled person keeps everything they have but cannot log in. `library`: their library's
 * database, in DATA_DIR: hearth.db for the first person (the library from before accounts stays
 * where it was), people/<id>.db for everyone after (lib/services/runtime.ts opens it).
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    role: text('role', { enum: roles }).notNull(),
    passwordHash: text('password_hash'),
    disabled: integer('disabled', { mode: 'boolean' }).notNull().default(false),
    library: text('library').notNull(),
    createdAt: integer('created_at').notNull(),
    /** Turns this person may begin in a day (in Hearth's timezone); null: no limit. */
    turnsPerDay: integer('turns_per_day'),
    /** The most fuel one of their turns may burn (below the Settings page's budget); null: that budget. */
    fuelPerTurn: integer('fuel_per_turn'),
    /** Who they are at a single sign-on provider: its issuer and the `sub` claim, as `issuer sub`; null: none. */
    oidcSubject: text('oidc_subject'),
    /** Their e-mail address, as the sign-on provider gave it (shown on the People page). */
    email: text('email'),
    /** Who a trusted reverse proxy says they are, exactly as its header gives it; null: none. */
    proxyUser: text('proxy_user'),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(t.username),
    uniqueIndex('users_oidc_subject_unique').on(t.oidcSubject),
    uniqueIndex('users_proxy_user_unique').on(t.proxyUser),
  ],
);

/**
 * What a person's turns used of the model servers, by day (in Hearth's timezone) and model: one
 * row each, added to as each turn ends. Kept apart from the turns so deleting a thread does not
 * change what was used (nor a day's count of turns against a limit).
 */
export const usage = sqliteTable(
  'usage',
  {
    day: text('day').notNull(),
    /** The model that wrote the answers, as the server named it ('' when no model answered). */
    model: text('model').notNull(),
    turns: integer('turns').notNull().default(0),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    generatedTokens: integer('generated_tokens').notNull().default(0),
    /** Time spent waiting on the model server, in milliseconds. */
    modelMs: integer('model_ms').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.model] })],
);

/**
 * Invitations to this Hearth (lib/services/auth/people.ts): the link's token is kept only as its
 * SHA-256, with the role it gives, until when it works, and who used it (once).
 */
export const invites = sqliteTable('invites', {
  id: text('id').primaryKey(),
  role: text('role', { enum: roles }).notNull(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'cascade' }),
  createdAt: integer('created_at').notNull(),
  expiresAt: integer('expires_at').notNull(),
  usedBy: text('used_by'),
  usedAt: integer('used_at'),
});

/**
 * Login attempts being counted (lib/services/auth/rate-limit.ts): one row per attempt, by the
 * limit it counts for (`scope`: per client address, per account) and whose (`key`). Kept in the
 * database, so a restart does not forgive a guesser and every Hearth process on one database
 * counts the same attempts. `cleared`: the address logged in since; the attempt still counts
 * towards the limit over all addresses. Rows older than the window are deleted as attempts come.
 */
export const loginAttempts = sqliteTable(
  'login_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    scope: text('scope', { enum: ['address', 'account'] }).notNull(),
    key: text('key').notNull(),
    at: integer('at').notNull(),
    cleared: integer('cleared', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('login_attempts_key_idx').on(t.scope, t.key, t.at), index('login_attempts_at_idx').on(t.scope, t.at)],
);

/**
 * The model servers' slot queue shared by the Hearth processes on one database
 * (lib/models/shared-queue.ts): every turn of every process waiting for a conversation slot or
 * holding one. A row belongs to its process and holds while that process renews it; a process
 * that dies gives its rows up when they lapse. Used on PostgreSQL with several processes; one
 * process on SQLite keeps its queue in memory.
 */
export const modelQueue = sqliteTable(
  'model_queue',
  {
    turnId: text('turn_id').primaryKey(),
    /** The queue (one per model pool of a process) it waits or runs in: only that one renews or removes it. */
    process: text('process').notNull(),
    threadId: text('thread_id').notNull(),
    /** Whose turn it is (turns are lined up round-robin by person); null: no one's. */
    person: text('person'),
    /** The model it asks for; null: the servers' own. */
    model: text('model'),
    /** Moving away from a server that failed: it waits first, for any server but this one. */
    avoidUrl: text('avoid_url'),
    /** Its place in line: waiting turns are served in this order (a new one is lined up round-robin by person). */
    seq: integer('seq').notNull(),
    /** Where it runs once granted: a server and its conversation slot; null while it waits. */
    serverUrl: text('server_url'),
    slot: integer('slot'),
    /** Granted nowhere: no server can take it (it ends with the reason). */
    refused: integer('refused', { mode: 'boolean' }).notNull().default(false),
    leaseUntil: integer('lease_until').notNull(),
  },
  (t) => [index('model_queue_lease_idx').on(t.leaseUntil)],
);

/**
 * Login sessions (only used when a password is set). The id is the SHA-256 of the token in
 * the cookie, so a copy of the database does not hold a usable session. Each is one person's
 * (a session from before accounts is the owner's once the owner is made); the browser and
 * address it began from let the person tell their sessions apart.
 */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    userAgent: text('user_agent'),
    address: text('address'),
  },
  (t) => [index('sessions_expires_idx').on(t.expiresAt), index('sessions_user_idx').on(t.userId)],
);

/**
 * What the Settings page changed (lib/settings): one row per setting, its value as JSON. A
 * setting without a row takes its value from the environment.
 */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Knowledge collections: documents people ask about across conversations (lib/data/knowledge). A
 * collection is used by the threads that chose it (thread_collections) or, when everyThread
 * is set, by every thread.
 */
export const collections = sqliteTable('collections', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  everyThread: integer('every_thread', { mode: 'boolean' }).notNull().default(false),
  /** Offered to everyone on this Hearth, read-only to all but its owner's library (set by the owner or an admin). */
  shared: integer('shared', { mode: 'boolean' }).notNull().default(false),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * A file of a collection: its bytes in the content-addressed file store (as attachments'), its
 * text cut into doc_chunks. `queued`: not yet cut; `indexing`: cut and searchable by its words,
 * vectors still coming; `ready`: indexed (every chunk has a vector of the embedding model in
 * use, or there is no embeddings server); `error`: it could not be read (the reason in error).
 */
export const collectionFiles = sqliteTable(
  'collection_files',
  {
    id: text('id').primaryKey(),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    kind: text('kind', { enum: fileKinds }).notNull(),
    status: text('status', { enum: collectionFileStatuses }).notNull().default('queued'),
    error: text('error'),
    /** Its chunks, and how many of them have a vector of the embedding model in use. */
    chunks: integer('chunks').notNull().default(0),
    embedded: integer('embedded').notNull().default(0),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('collection_files_collection_idx').on(t.collectionId, t.createdAt), index('collection_files_status_idx').on(t.status)],
);

/**
 * A passage of a collection's file, cut along its structure (lib/data/knowledge/chunk.ts), with
 * where it is: its 1-based lines in the file's text and, for a PDF, its page. Full-text
 * indexed by doc_chunks_fts (migration 0019's triggers); its vector, once made, is in
 * chunk_vectors and the quantised search index (db/queries/knowledge.ts).
 */
export const docChunks = sqliteTable(
  'doc_chunks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    fileId: text('file_id')
      .notNull()
      .references(() => collectionFiles.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    text: text('text').notNull(),
    page: integer('page'),
    lineStart: integer('line_start').notNull(),
    lineEnd: integer('line_end').notNull(),
    /** The embedding model its vector came from; null: none yet (or the model changed since). */
    embeddedWith: text('embedded_with'),
  },
  (t) => [index('doc_chunks_file_idx').on(t.fileId, t.seq), index('doc_chunks_unembedded_idx').on(t.embeddedWith)],
);

/** A chunk's vector as the embeddings server gave it (float32, normalised), for exact re-ranking. */
export const chunkVectors = sqliteTable('chunk_vectors', {
  chunkId: integer('chunk_id')
    .primaryKey()
    .references(() => docChunks.id, { onDelete: 'cascade' }),
  vector: blob('vector', { mode: 'buffer' }).notNull(),
});

/** The collections a thread uses (besides those used by every thread). */
export const threadCollections = sqliteTable(
  'thread_collections',
  {
    threadId: text('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    collectionId: text('collection_id')
      .notNull()
      .references(() => collections.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.collectionId] }), index('thread_collections_collection_idx').on(t.collectionId)],
);

/**
 * The embedding model whose vectors the index holds, and their dimensions (one row, id 1). A
 * change of model empties the vectors and the indexer makes them again (lib/data/knowledge/indexer.ts).
 */
export const vectorIndex = sqliteTable('vector_index', {
  id: integer('id').primaryKey(),
  model: text('model').notNull(),
  dims: integer('dims').notNull(),
  /**
   * Changes with every change to the quantised chunk vectors (from a random start, so a new
   * index never repeats an old one's value): the search worker, which holds them in memory,
   * reloads them when it differs (db/vector-worker.ts).
   */
  generation: integer('generation').notNull().default(0),
});

/**
 * A message's vector (float32, normalised), when past conversations are searched by meaning
 * too (the setting conversationsByMeaning): from the embedding model of vector_index, with
 * its quantised copy in the sqlite-vec table `message_bits` under the same id.
 */
export const messageVectors = sqliteTable('message_vectors', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  messageId: text('message_id')
    .notNull()
    .unique()
    .references(() => messages.id, { onDelete: 'cascade' }),
  vector: blob('vector', { mode: 'buffer' }).notNull(),
});
