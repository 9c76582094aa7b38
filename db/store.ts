import type { Db } from './client';
import { ConnectionGate } from './connection-gate';
import type { EngineDb } from './engine';
import * as sqliteTables from './schema';
import { attachmentQueries } from './queries/attachments';
import { decisionQueries } from './queries/decisions';
import { folderQueries } from './queries/folders';
import { hostQueries } from './queries/hosts';
import { knowledgeQueries } from './queries/knowledge';
import { knowledgeSearchQueries } from './queries/knowledge-search';
import { libraryQueries } from './queries/library';
import { loginAttemptQueries } from './queries/login-attempts';
import { memoryQueries } from './queries/memories';
import { messageQueries } from './queries/messages';
import { modelQueueQueries } from './queries/model-queue';
import { messageVectorQueries, type NearestMessages } from './queries/message-vectors';
import { promptQueries } from './queries/prompts';
import { searchQueries } from './queries/search';
import { sessionQueries } from './queries/sessions';
import { settingQueries } from './queries/settings';
import { threadQueries } from './queries/threads';
import { turnQueries } from './queries/turns';
import { usageQueries } from './queries/usage';
import { sqliteQuantisedVectors, type QuantisedVectors } from './queries/vector-index';
import { userQueries } from './queries/users';

/**
 * Every query family over one database handle, as the store's port: each call answers with a
 * promise. On SQLite the work underneath is synchronous and runs at once unless another request's
 * transaction holds the connection (see ConnectionGate); PostgreSQL's is asynchronous by nature.
 */
export function createStore(db: Db) {
  const gate = new ConnectionGate(db.$client);
  const neutral = sqliteEngineDb(db, gate);
  const bits = sqliteQuantisedVectors(db.$client);
  return {
    /** The SQLite handle itself: for scripts, workers and tests that work below the port. */
    db,
    ...gate.asynchronous({
      ...engineNeutralQueries(neutral, bits),
      ...knowledgeSearchQueries(db, bits),
      ...searchQueries(db),
    }),
    /** Where the library is: a worker thread opens a connection of its own to it (an import, the vector scan). */
    place: { engine: 'sqlite', file: db.$client.name } as StorePlace,
    /** Lets the database go (the process is ending). */
    close: async (): Promise<void> => {
      db.$client.close();
    },
    /** Runs `work` atomically: its writes land together or not at all. */
    transaction<T>(work: () => Promise<T> | T): Promise<T> {
      return gate.transaction(work);
    },
  };
}

/** SQLite's store, with its handle below the port (scripts, workers and tests use it). */
export type SqliteStore = ReturnType<typeof createStore>;

/** The store's port, as every engine answers it: what lib/ works with. */
export type Store = Omit<SqliteStore, 'db'>;

/** Where a library is kept: a SQLite file, or a schema of a PostgreSQL database. */
export type StorePlace = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string; schema: string };

/**
 * The query families written once for both engines (db/engine.ts), over one handle; `bits` is
 * SQLite's quantised copy of the vectors (none on PostgreSQL, nor without sqlite-vec).
 */
export function engineNeutralQueries(db: EngineDb, bits: QuantisedVectors | null, nearestMessages?: NearestMessages) {
  return {
    ...knowledgeQueries(db, bits),
    ...messageVectorQueries(db, bits, nearestMessages),
    ...libraryQueries(db),
    ...threadQueries(db),
    ...folderQueries(db),
    ...messageQueries(db),
    ...turnQueries(db),
    ...modelQueueQueries(db),
    ...usageQueries(db),
    ...decisionQueries(db),
    ...hostQueries(db),
    ...memoryQueries(db),
    ...promptQueries(db),
    ...attachmentQueries(db),
    ...sessionQueries(db),
    ...loginAttemptQueries(db),
    ...userQueries(db),
    ...settingQueries(db),
  };
}

/**
 * SQLite's handle for the engine-neutral families: drizzle's own (inherited, not copied, so its
 * methods see their fields), with the tables of db/schema.ts and transactions through the gate.
 */
function sqliteEngineDb(db: Db, gate: ConnectionGate): EngineDb {
  const handle = Object.create(db) as EngineDb;
  const extra: Pick<EngineDb, 'engine' | 'tables' | 'atomically' | 'exclusively' | 'snapshot'> = {
    engine: 'sqlite',
    tables: sqliteTables,
    atomically: (work) => gate.transaction(work),
    exclusively: (_key, work) => gate.transaction(work),
    snapshot: (work) => gate.call(work),
  };
  return Object.assign(handle, extra);
}
