import fs from 'node:fs';
import type { FileStore } from '@/lib/data/file-store';
import type { ImportCounted, ImportSummary } from '@/lib/contract/responses';
import { isUnfinishedTurn } from '@/lib/contract/statuses';
import { asStorageFull, HearthError, isForeignKeyFailure } from '@/lib/shared/errors';
import { isConfirmedSetting } from '@/lib/contract/settings';
import { normalSampling, type Sampling } from '@/lib/contract/sampling';
import { serverSchema, TOOL_SERVER_PROPOSAL } from '@/lib/tools/mcp/config';
import { SETTING_KEYS, SETTING_SHAPES, type SettingKey } from '@/lib/services/settings-values';
import { z } from 'zod';
import { describeIssue, type LibraryRecord } from './format';
import { bad, inLibraryFile } from './import';
import type { ImportStore, StagedImport } from './import-types';

/**
 * Step 2 of an import (import.ts has step 1): the staged records applied in one SQLite
 * transaction, rows already there kept as they are, references checked as they go; any failure
 * rolls the whole import back and removes the files it placed.
 */

type Counted = ImportCounted;

const zero = (): Record<Counted, number> => ({
  settings: 0,
  prompts: 0,
  folders: 0,
  collections: 0,
  collectionFiles: 0,
  memories: 0,
  threads: 0,
  messages: 0,
  decisions: 0,
  turns: 0,
  turnEvents: 0,
  toolCalls: 0,
  attachments: 0,
  files: 0,
});

/**
 * What an import leaves out, and why: each a kind of record, counted. The page says each one, so
 * nothing a file held is dropped without a word.
 */
const SKIPPED = {
  turnSteps: {
    what: 'steps of how turns ran',
    why: 'a turn resumes only from steps this Hearth wrote itself, so an imported turn is history and its steps are not imported',
  },
  settingsOfOtherVersions: { what: 'settings this version of Hearth does not have', why: 'they were written by another version' },
} as const;

/** Step 2: applies a staged import in one transaction; all or nothing. */
export async function applyImport(store: ImportStore, staged: StagedImport, files: FileStore, now = Date.now()): Promise<ImportSummary> {
  const summary: ImportSummary = {
    source: staged.source,
    added: zero(),
    alreadyHere: zero(),
    proposed: [],
    proposedToolServers: [],
    skipped: [],
  };
  const count = (what: Counted, added: boolean) => summary[added ? 'added' : 'alreadyHere'][what]++;
  const skipped = new Map<keyof typeof SKIPPED, number>();
  const skip = (what: keyof typeof SKIPPED) => skipped.set(what, (skipped.get(what) ?? 0) + 1);
  const placed: string[] = [];
  try {
    await store.transaction(async () => {
      /** Decision numbers in the file → in this library (turn logs refer to them). */
      const decisionIds = new Map<number, number>();
      /** Each thread's message read last: what a message from a file written before branches follows. */
      const lastMessage = new Map<string, string>();
      for (const { line, record } of staged.records()) {
        try {
          await applyRecord(store, record, { decisionIds, lastMessage, summary, now, skip }, count);
        } catch (err) {
          const explained = explain(staged.source === 'library' ? `line ${line}` : `conversation ${line}`, record, err);
          throw staged.source === 'library' ? inLibraryFile(explained) : explained;
        }
      }
      for (const f of staged.files) {
        // A file already here stays as it is (same hash, same bytes); its staged copy goes.
        const added = files.place(f.tmp, f.sha256, f.part, f.kind);
        if (added) placed.push(files.pathOf(f.sha256, f.part, f.kind));
        count('files', added);
      }
    });
  } catch (err) {
    for (const p of placed) fs.rmSync(p, { force: true });
    throw err;
  } finally {
    staged.discard();
  }
  for (const [what, n] of skipped) summary.skipped.push({ ...SKIPPED[what], count: n });
  return summary;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const bit = (v: unknown) => (v ? 1 : 0);
const json = (v: unknown) => JSON.stringify(v ?? null);
const jsonOrNull = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** A file record as a row to store: its fields in snake_case, some values changed on the way (the reverse of export's asRecord). */
function asRow<T>(record: LibraryRecord, change: Record<string, (value: unknown) => unknown> = {}): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key !== 'type') out[snake(key)] = change[key] ? change[key](value) : value;
  }
  return out as T;
}

async function applyRecord(
  store: ImportStore,
  r: LibraryRecord,
  {
    decisionIds,
    lastMessage,
    summary,
    now,
    skip,
  }: {
    decisionIds: Map<number, number>;
    lastMessage: Map<string, string>;
    summary: ImportSummary;
    now: number;
    skip: (what: keyof typeof SKIPPED) => void;
  },
  count: (what: Counted, added: boolean) => void,
) {
  switch (r.type) {
    case 'setting': {
      // The browser's theme is no server setting: the route gives it to the page (summary.theme).
      if (r.key === 'theme') {
        summary.theme = z.enum(['light', 'dark', 'system']).parse(r.value);
        return;
      }
      // A setting of another Hearth version that this one does not have is left out.
      if (!(SETTING_KEYS as string[]).includes(r.key)) return skip('settingsOfOtherVersions');
      const key = r.key as SettingKey;
      const parsed = SETTING_SHAPES[key].safeParse(r.value);
      if (!parsed.success) throw bad(`the setting ${key}: ${parsed.error.issues[0].message}`);
      // Where Hearth sends data and what it runs is the owner's to say: the file only proposes it.
      if (isConfirmedSetting(key)) {
        await store.proposeSetting({ key, value: JSON.stringify(parsed.data), proposed_at: now });
        if (!summary.proposed.includes(key)) summary.proposed.push(key);
        return;
      }
      // A setting already made in this Hearth stays as it is, as every row already here does.
      return count('settings', await store.importSetting({ key, value: JSON.stringify(parsed.data), updated_at: r.updatedAt }));
    }
    case 'tool_server': {
      // A program to run or an address to call is the owner's to add: the file only proposes it.
      const server = serverSchema.safeParse(r.server);
      if (!server.success) throw bad(`the tool server ${r.name}: ${describeIssue(server.error)}`);
      await store.proposeSetting({ key: `${TOOL_SERVER_PROPOSAL}${r.name}`, value: JSON.stringify(server.data), proposed_at: now });
      if (!summary.proposedToolServers.includes(r.name)) summary.proposedToolServers.push(r.name);
      return;
    }
    case 'memory':
      return count('memories', await store.importMemory(asRow(r)));
    case 'prompt':
      return count('prompts', await store.importPrompt(asRow(r)));
    case 'folder':
      return count('folders', await store.importFolder(asRow(r)));
    case 'collection':
      return count('collections', await store.importCollection(asRow(r, { everyThread: bit })));
    case 'collection_file':
      if (!(await store.collectionExists(r.collectionId)))
        throw bad(`it belongs to collection ${r.collectionId}, which is neither in the file nor in this library`);
      return count('collectionFiles', await store.importCollectionFile(asRow(r)));
    case 'thread_collection':
      if (!(await store.threadExists(r.threadId))) throw bad(`thread ${r.threadId} is neither in the file nor in this library`);
      if (!(await store.collectionExists(r.collectionId)))
        throw bad(`collection ${r.collectionId} is neither in the file nor in this library`);
      await store.importThreadCollection(asRow(r));
      return;
    case 'thread':
      if (r.folderId && !(await store.folderExists(r.folderId)))
        throw bad(`it is in folder ${r.folderId}, which is neither in the file nor in this library`);
      return count(
        'threads',
        await store.importThread(
          asRow(r, {
            pinned: bit,
            archived: bit,
            disabledTools: jsonOrNull,
            sampling: (v) => jsonOrNull(normalSampling(v as Sampling | null)),
          }),
        ),
      );
    case 'message': {
      const parentId = r.parentId !== undefined ? r.parentId : (lastMessage.get(r.threadId) ?? null);
      lastMessage.set(r.threadId, r.id);
      if (parentId !== null && !(await store.messageOfThread(parentId, r.threadId)))
        throw bad(`the message it follows (${parentId}) is not an earlier message of thread ${r.threadId}`);
      // An answer still being written elsewhere is, here, one that stopped: no turn of this Hearth writes it.
      const status = r.status === 'streaming' ? 'interrupted' : r.status;
      return count('messages', await store.importMessage(asRow({ ...r, parentId, status })));
    }
    case 'decision': {
      if (r.threadId !== null && !(await store.threadExists(r.threadId)))
        throw bad(`it belongs to thread ${r.threadId}, which is neither in the file nor in this library`);
      const { stepId, at, modelId, source, answers } = r.record;
      const { id, added } = await store.importDecision({
        layer_id: r.layerId,
        scope: r.scope,
        scope_key: r.scopeKey,
        turn_id: r.turnId,
        thread_id: r.threadId,
        step_id: stepId,
        at,
        model_id: modelId,
        source,
        answers: JSON.stringify(answers),
      });
      decisionIds.set(r.id, id);
      return count('decisions', added);
    }
    case 'turn': {
      if (!(await store.threadExists(r.threadId)))
        throw bad(`it belongs to thread ${r.threadId}, which is neither in the file nor in this library`);
      if (!(await store.messageOfThread(r.userMessageId, r.threadId)))
        throw bad(`its question (message ${r.userMessageId}) is not a message of thread ${r.threadId}`);
      if (r.assistantMessageId !== null && !(await store.messageOfThread(r.assistantMessageId, r.threadId))) {
        throw bad(`its answer (message ${r.assistantMessageId}) is not a message of thread ${r.threadId}`);
      }
      // A reference to a decision the file does not hold points at none (0): replay skips it, as for a trimmed record.
      const events = r.events?.map(([seq, e]) => [
        seq,
        typeof e === 'object' && 'decision' in e ? { decision: decisionIds.get(e.decision) ?? 0 } : e,
      ]);
      // An imported turn is history: one that was waiting or running elsewhere is stored as
      // interrupted, so no start of this Hearth resumes it (resumeUnfinished reads only those two).
      const unfinished = isUnfinishedTurn(r.status);
      const turn = unfinished ? { ...r, status: 'interrupted' as const, finishedAt: r.finishedAt ?? r.createdAt } : r;
      return count('turns', await store.importTurn(asRow(turn, { events: () => (events ? JSON.stringify(events) : null) })));
    }
    case 'turn_event':
      return count(
        'turnEvents',
        await store.importTurnEvent({
          turn_id: r.turnId,
          seq: r.seq,
          type: r.event.type,
          data: JSON.stringify(r.event),
          created_at: r.createdAt,
        }),
      );
    case 'turn_step':
      // The step journal is what a resumed turn replays (its model calls and approvals): only
      // this Hearth's own runner writes it, so a file's steps are never stored.
      return skip('turnSteps');
    case 'tool_call': {
      const owner = await store.turnThread(r.turnId);
      if (owner === undefined) throw bad(`its turn ${r.turnId} is neither in the file nor in this library`);
      if (owner !== r.threadId) throw bad(`its turn ${r.turnId} belongs to another thread than ${r.threadId}`);
      return count('toolCalls', await store.importToolCall(asRow(r, { ok: bit, repeat: bit, result: json })));
    }
    case 'attachment':
      return count('attachments', await store.importAttachment(asRow(r)));
    case 'file':
      return; // staged as files, placed after the rows
  }
}

/** What went wrong, with the line: SQLite's foreign-key failure said in the terms of the file. */
function explain(place: string, r: LibraryRecord, err: unknown): HearthError {
  // A full disk is not the file's fault: say so (507), and nothing of the import stays.
  const full = asStorageFull(err);
  if (full) return full;
  const where = `${place} (${r.type}${'id' in r ? ` ${String(r.id)}` : ''})`;
  if (isForeignKeyFailure(err)) {
    const parent =
      r.type === 'message'
        ? `thread ${r.threadId}`
        : r.type === 'attachment'
          ? `message ${r.messageId}`
          : 'turnId' in r
            ? `turn ${String(r.turnId)}`
            : 'threadId' in r
              ? `thread ${String(r.threadId)}`
              : 'what it refers to';
    return bad(`${where}: it refers to ${parent}, which is neither in the file nor in this library`);
  }
  return bad(`${where}: ${(err as Error)?.message ?? String(err)}`);
}
