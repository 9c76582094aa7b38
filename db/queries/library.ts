import { runStatement, statement, storedRows, type EngineDb, type Tables } from '../engine';
import { decodeStats, encodeStats } from './turns';

/**
 * Whole-library reads and writes for export and import (lib/services/library). Reads return rows as
 * stored; writes never replace a row that is there (ON CONFLICT DO NOTHING), so importing
 * the same file twice changes nothing, and report whether they added it. Foreign keys are on:
 * a row pointing at a thread, message or turn that does not exist fails, and the import with it.
 */

type Row = Record<string, unknown>;

export type ThreadRow = {
  id: string;
  title: string;
  title_source: string;
  system_prompt: string;
  pinned: number;
  current_leaf_id?: string | null;
  thinking?: string | null;
  /** JSON text of a list of tool names, as stored. */
  disabled_tools?: string | null;
  sampling?: string | null;
  model?: string | null;
  folder_id?: string | null;
  archived?: number;
  created_at: number;
  updated_at: number;
};
export type PromptRow = { id: string; name: string; text: string; created_at: number; updated_at: number };
export type FolderRow = { id: string; name: string; created_at: number };
export type MessageRow = {
  id: string;
  thread_id: string;
  turn_id: string | null;
  parent_id?: string | null;
  role: string;
  content: string;
  status: string;
  error_code: string | null;
  context_block: string | null;
  model?: string | null;
  rating?: number | null;
  created_at: number;
};
/** stats: the figures by name (stored more compactly; see turns.ts), or null. */
export type TurnRow = {
  id: string;
  thread_id: string;
  user_message_id: string;
  assistant_message_id: string | null;
  status: string;
  stats: Record<string, unknown> | null;
  events: string | null;
  created_at: number;
  finished_at: number | null;
};
export type TurnEventRow = { turn_id: string; seq: number; type: string; data: string; created_at: number };
export type ToolCallRow = {
  id: string;
  turn_id: string;
  thread_id: string;
  name: string;
  arguments: string;
  ok: number;
  result: string;
  repeat: number;
  ms: number;
  created_at: number;
};
export type DecisionRow = {
  id: number;
  layer_id: string;
  scope: string;
  scope_key: string;
  turn_id: string | null;
  thread_id: string | null;
  step_id: string;
  at: number;
  model_id: string;
  source: string;
  answers: string;
};
export type AttachmentRow = {
  id: string;
  message_id: string | null;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  text: string;
  kind: string;
  chars: number;
  lines: number;
  width?: number | null;
  height?: number | null;
  created_at: number;
};
export type SettingRow = { key: string; value: string; updated_at: number };
export type MemoryRow = { id: string; text: string; created_at: number; updated_at: number };

export type CollectionRow = { id: string; name: string; every_thread: number; created_at: number; updated_at: number };
export type CollectionFileRow = {
  id: string;
  collection_id: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  kind: string;
  created_at: number;
};

export function libraryQueries(db: EngineDb) {
  /** The rows of one table a statement reads, as SQLite stores them (db/engine.ts). */
  const all = <T>(table: keyof Tables, text: string, ...params: unknown[]) => storedRows<T>(db, table, statement(text, params));
  /** Inserts unless a row with the same key is there; true when it added the row. */
  const insert = async (table: string, row: Row) => {
    const columns = Object.keys(row);
    const text = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`;
    return (
      (await runStatement(
        db,
        statement(
          text,
          columns.map((c) => row[c]),
        ),
      )) > 0
    );
  };
  const exists = async (table: keyof Tables, name: string, id: string) =>
    (await all(table, `SELECT 1 AS found FROM ${name} WHERE id = ?`, id)).length > 0;

  return {
    async libraryThreadIds(): Promise<string[]> {
      return (await all<{ id: string }>('threads', 'SELECT id FROM threads ORDER BY created_at, id')).map((r) => r.id);
    },

    /** What the Settings page changed, as stored (values are JSON text). */
    settingRows: () => all<SettingRow>('settings', 'SELECT key, value, updated_at FROM settings ORDER BY key'),

    promptRows: () => all<PromptRow>('prompts', 'SELECT id, name, text, created_at, updated_at FROM prompts ORDER BY name'),

    memoryRows: () => all<MemoryRow>('memories', 'SELECT id, text, created_at, updated_at FROM memories ORDER BY created_at, id'),

    /** Everything stored for one thread, read in one go (so it is consistent with itself). */
    threadRows(threadId: string) {
      return db.snapshot(async () => {
        const thread = (
          await all<ThreadRow>(
            'threads',
            'SELECT id, title, title_source, system_prompt, pinned, current_leaf_id, thinking, disabled_tools, model, sampling, folder_id, archived, created_at, updated_at FROM threads WHERE id = ?',
            threadId,
          )
        )[0];
        if (!thread) return undefined;
        const turnIds = 'SELECT id FROM turns WHERE thread_id = ?';
        return {
          thread,
          messages: await all<MessageRow>(
            'messages',
            'SELECT id, thread_id, turn_id, parent_id, role, content, status, error_code, context_block, model, rating, created_at FROM messages WHERE thread_id = ? ORDER BY created_at, role, id',
            threadId,
          ),
          decisions: await all<DecisionRow>('decisionRecords', 'SELECT * FROM decision_records WHERE thread_id = ? ORDER BY id', threadId),
          turns: (
            await all<Omit<TurnRow, 'stats'> & { stats: string | null }>(
              'turns',
              'SELECT id, thread_id, user_message_id, assistant_message_id, status, stats, events, created_at, finished_at FROM turns WHERE thread_id = ? ORDER BY created_at, id',
              threadId,
            )
          ).map((t): TurnRow => ({ ...t, stats: t.stats === null ? null : decodeStats(JSON.parse(t.stats)) })),
          turnEvents: await all<TurnEventRow>(
            'turnEvents',
            `SELECT * FROM turn_events WHERE turn_id IN (${turnIds}) ORDER BY turn_id, seq`,
            threadId,
          ),
          toolCalls: await all<ToolCallRow>('toolCalls', 'SELECT * FROM tool_calls WHERE thread_id = ? ORDER BY created_at, id', threadId),
          attachments: await all<AttachmentRow>(
            'attachments',
            'SELECT id, message_id, name, mime, size, sha256, text, kind, chars, lines, width, height, created_at FROM attachments WHERE message_id IN (SELECT id FROM messages WHERE thread_id = ?) ORDER BY created_at, id',
            threadId,
          ),
        };
      });
    },

    /** Decision records kept for no thread (the whole library's, or a turn's own). */
    looseDecisionRows: () => all<DecisionRow>('decisionRecords', 'SELECT * FROM decision_records WHERE thread_id IS NULL ORDER BY id'),

    /** Knowledge collections, their files (as stored, without their index) and the threads that chose them. */
    collectionRows: () =>
      all<CollectionRow>('collections', 'SELECT id, name, every_thread, created_at, updated_at FROM collections ORDER BY created_at, id'),
    collectionFileRows: () =>
      all<CollectionFileRow>(
        'collectionFiles',
        'SELECT id, collection_id, name, mime, size, sha256, kind, created_at FROM collection_files ORDER BY created_at, id',
      ),
    threadCollectionRows: () =>
      all<{ thread_id: string; collection_id: string }>(
        'threadCollections',
        'SELECT thread_id, collection_id FROM thread_collections ORDER BY thread_id, collection_id',
      ),
    importCollection: (row: CollectionRow) => insert('collections', row),
    /** A collection's file, queued: its passages are cut and embedded again here. */
    importCollectionFile: (row: CollectionFileRow) => insert('collection_files', { ...row, status: 'queued', chunks: 0, embedded: 0 }),
    importThreadCollection: (row: { thread_id: string; collection_id: string }) => insert('thread_collections', row),
    collectionExists: (id: string) => exists('collections', 'collections', id),

    /** A setting from a file, unless this Hearth has set its own. */
    importSetting: (row: SettingRow) => insert('settings', row),
    /** A setting from a file that only the owner may put in force: kept as a proposal, the latest file's value winning. */
    async proposeSetting(row: { key: string; value: string; proposed_at: number }) {
      await runStatement(
        db,
        statement(
          'INSERT INTO setting_proposals (key, value, proposed_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, proposed_at = excluded.proposed_at',
          [row.key, row.value, row.proposed_at],
        ),
      );
    },

    /**
     * A saved prompt: one already here (by id, or by name with the same text) is kept as it is; one
     * whose name is taken by another text comes in under the next free name ("summarize-2"), so
     * neither is lost.
     */
    async importPrompt(row: PromptRow): Promise<boolean> {
      if (await exists('prompts', 'prompts', row.id)) return false;
      const textNamed = async (name: string) =>
        (await all<{ text: string }>('prompts', 'SELECT text FROM prompts WHERE name = ?', name))[0]?.text;
      let name = row.name;
      for (let n = 2, taken = await textNamed(name); taken !== undefined; n++, taken = await textNamed(name)) {
        if (taken === row.text) return false;
        name = `${row.name.slice(0, 36)}-${n}`;
      }
      return insert('prompts', { ...row, name });
    },

    async importMemory(row: MemoryRow): Promise<boolean> {
      // The same fact under another id is the same fact.
      if ((await all('memories', 'SELECT 1 AS found FROM memories WHERE lower(text) = lower(?)', row.text)).length > 0) return false;
      return insert('memories', row);
    },
    importThread: (row: ThreadRow) => insert('threads', row),
    folderRows: () => all<FolderRow>('folders', 'SELECT id, name, created_at FROM folders ORDER BY created_at, id'),
    importFolder: (row: FolderRow) => insert('folders', row),
    folderExists: (id: string) => exists('folders', 'folders', id),
    importMessage: (row: MessageRow) => insert('messages', row),
    importTurn: (row: TurnRow) => insert('turns', { ...row, stats: row.stats === null ? null : JSON.stringify(encodeStats(row.stats)) }),
    importTurnEvent: (row: TurnEventRow) => insert('turn_events', row),
    importToolCall: (row: ToolCallRow) => insert('tool_calls', row),
    importAttachment: (row: AttachmentRow) => insert('attachments', row),

    /**
     * A decision record by what it is (layer, scope, turn, step, time): the id of the one already
     * kept, or of the one added. Its number differs between libraries; turn logs are rewritten.
     */
    async importDecision(row: Omit<DecisionRow, 'id'>): Promise<{ id: number; added: boolean }> {
      const [found] = await all<{ id: number }>(
        'decisionRecords',
        'SELECT id FROM decision_records WHERE layer_id = ? AND scope = ? AND scope_key = ? AND turn_id IS NOT DISTINCT FROM ? AND step_id = ? AND at = ? LIMIT 1',
        row.layer_id,
        row.scope,
        row.scope_key,
        row.turn_id,
        row.step_id,
        row.at,
      );
      if (found) return { id: found.id, added: false };
      const columns = Object.keys(row) as (keyof typeof row)[];
      const [added] = await all<{ id: number }>(
        'decisionRecords',
        `INSERT INTO decision_records (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING id`,
        ...columns.map((c) => row[c]),
      );
      return { id: added.id, added: true };
    },

    threadExists: (id: string) => exists('threads', 'threads', id),
    messageOfThread: async (id: string, threadId: string) =>
      (await all('messages', 'SELECT 1 AS found FROM messages WHERE id = ? AND thread_id = ?', id, threadId)).length > 0,
    turnThread: async (id: string): Promise<string | undefined> =>
      (await all<{ thread_id: string }>('turns', 'SELECT thread_id FROM turns WHERE id = ?', id))[0]?.thread_id,
    /** What an attachment with this file is known as here (for a thread's JSON, which carries no file text). */
    attachmentByHash: async (sha256: string): Promise<Pick<AttachmentRow, 'text' | 'kind' | 'chars' | 'lines'> | undefined> =>
      (
        await all<Pick<AttachmentRow, 'text' | 'kind' | 'chars' | 'lines'>>(
          'attachments',
          'SELECT text, kind, chars, lines FROM attachments WHERE sha256 = ? LIMIT 1',
          sha256,
        )
      )[0],
  };
}
