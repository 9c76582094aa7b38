import type { Asynchronous } from '@/db/connection-gate';
import type { Transactional } from '@/lib/shared/awaitable';
import type { libraryQueries } from '@/db/queries/library';
import type { FileKind } from '@/lib/data/file-store';
import type { ImportSummary } from '@/lib/contract/responses';
import type { LibraryRecord } from './format';

/** What the two steps of an import share: the store's import queries, and what staging hands to applying. */

/** What staging asks of the library while it reads a file: what a file's hash is known as here. */
export type KnownAttachment = ReturnType<typeof libraryQueries>['attachmentByHash'];

export type ImportStore = Asynchronous<
  Pick<
    ReturnType<typeof libraryQueries>,
    | 'importMemory'
    | 'importPrompt'
    | 'importThread'
    | 'importMessage'
    | 'importTurn'
    | 'importTurnEvent'
    | 'importToolCall'
    | 'importAttachment'
    | 'importDecision'
    | 'threadExists'
    | 'messageOfThread'
    | 'turnThread'
    | 'attachmentByHash'
    | 'importSetting'
    | 'proposeSetting'
    | 'importFolder'
    | 'importCollection'
    | 'importCollectionFile'
    | 'importThreadCollection'
    | 'collectionExists'
    | 'folderExists'
  >
> &
  Transactional;

export type StagedFile = { sha256: string; part: 'original' | 'text'; kind: FileKind; tmp: string };
export type StagedImport = {
  source: ImportSummary['source'];
  /** The checked records with where each came from: a line of a library file, a conversation of another app's export. */
  records(): Iterable<{ line: number; record: LibraryRecord }>;
  files: StagedFile[];
  /** Removes the temporary files (after applying, or when giving up). */
  discard(): void;
};
