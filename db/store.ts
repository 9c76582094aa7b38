import type { Db } from './client';
import { attachmentQueries } from './queries/attachments';
import { decisionQueries } from './queries/decisions';
import { folderQueries } from './queries/folders';
import { hostQueries } from './queries/hosts';
import { knowledgeQueries } from './queries/knowledge';
import { knowledgeSearchQueries } from './queries/knowledge-search';
import { libraryQueries } from './queries/library';
import { memoryQueries } from './queries/memories';
import { messageQueries } from './queries/messages';
import { messageVectorQueries } from './queries/message-vectors';
import { promptQueries } from './queries/prompts';
import { searchQueries } from './queries/search';
import { sessionQueries } from './queries/sessions';
import { settingQueries } from './queries/settings';
import { threadQueries } from './queries/threads';
import { turnQueries } from './queries/turns';
import { usageQueries } from './queries/usage';
import { userQueries } from './queries/users';

/** Every query family over one database handle. */
export function createStore(db: Db) {
  return {
    db,
    ...threadQueries(db),
    ...folderQueries(db),
    ...messageQueries(db),
    ...turnQueries(db),
    ...usageQueries(db),
    ...decisionQueries(db),
    ...hostQueries(db),
    ...memoryQueries(db),
    ...promptQueries(db),
    ...attachmentQueries(db),
    ...knowledgeQueries(db),
    ...knowledgeSearchQueries(db),
    ...messageVectorQueries(db),
    ...searchQueries(db),
    ...libraryQueries(db),
    ...sessionQueries(db),
    ...userQueries(db),
    ...settingQueries(db),
    /** The database's file: a worker thread opens a connection of its own to it (an import). */
    databaseFile: () => db.$client.name,
    transaction<T>(fn: () => T): T {
      return db.transaction(() => fn());
    },
  };
}

export type Store = ReturnType<typeof createStore>;
