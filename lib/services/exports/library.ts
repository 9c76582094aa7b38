import fs from 'node:fs';
import { FileStore, hasExtractedText, type FileKind, type FilePart } from '@/lib/data/file-store';
import type { libraryQueries } from '@/db/queries/library';
import type { Asynchronous } from '@/db/connection-gate';
import { FILE_CHUNK_BYTES, LIBRARY_FORMAT, LIBRARY_VERSION, type LibraryRecord } from '@/lib/services/library/format';

/**
 * GET /api/export: the whole library as one JSON Lines file (see format.ts), streamed. Each
 * thread is read from the database in one step (consistent with itself, and never holding the
 * connection across a pause); files are read a chunk at a time. The stream asks for
 * more only as the client takes it, so a library of any size costs little memory.
 */

export type ExportStore = Asynchronous<
  Pick<
    ReturnType<typeof libraryQueries>,
    | 'libraryThreadIds'
    | 'settingRows'
    | 'folderRows'
    | 'memoryRows'
    | 'promptRows'
    | 'threadRows'
    | 'looseDecisionRows'
    | 'collectionRows'
    | 'collectionFileRows'
    | 'threadCollectionRows'
  >
>;

/** About this much is handed to the client per pull. */
const PULL_BYTES = 256 * 1024;

const parse = (json: unknown) => (json === null ? null : (JSON.parse(String(json)) as unknown));
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** A stored row as a file record: its columns in camelCase, some values changed on the way (0/1 to booleans, JSON text to JSON). */
function asRecord(type: LibraryRecord['type'], row: object, change: Record<string, (value: unknown) => unknown> = {}): LibraryRecord {
  const out: Record<string, unknown> = { type };
  for (const [column, value] of Object.entries(row)) {
    const key = camel(column);
    out[key] = change[key] ? change[key](value) : value;
  }
  return out as LibraryRecord;
}

async function* records(
  store: ExportStore,
  files: FileStore,
  now: number,
  theme?: string,
  toolServers: readonly { name: string; server: unknown }[] = [],
): AsyncGenerator<LibraryRecord | Record<string, unknown>> {
  yield { type: LIBRARY_FORMAT, version: LIBRARY_VERSION, exportedAt: now };
  let count = 0;
  const counted = <T>(r: T) => (count++, r);
  for (const s of await store.settingRows()) {
    let value: unknown;
    try {
      value = JSON.parse(s.value);
    } catch {
      continue; // unreadable: Hearth uses the default for it, and so will the import
    }
    yield counted({ type: 'setting', key: s.key, value, updatedAt: s.updated_at } as LibraryRecord);
  }
  if (theme) yield counted({ type: 'setting', key: 'theme', value: theme, updatedAt: now } as LibraryRecord);
  for (const f of await store.folderRows()) yield counted(asRecord('folder', f));
  for (const t of toolServers) yield counted({ type: 'tool_server', name: t.name, server: t.server } as LibraryRecord);
  for (const m of await store.memoryRows()) yield counted(asRecord('memory', m));
  for (const p of await store.promptRows()) yield counted(asRecord('prompt', p));
  const sent = new Set<string>();
  /** A file's parts, once however many attachments and collections hold it. */
  function* fileOnce(sha256: string, kind: FileKind): Generator<LibraryRecord> {
    if (sent.has(sha256)) return;
    sent.add(sha256);
    yield* fileChunks(files, sha256, 'original', kind);
    // A PDF's, Word file's or spreadsheet's text, as extracted when it was added.
    if (hasExtractedText(kind)) yield* fileChunks(files, sha256, 'text', kind);
  }
  // Collections first: threads name the ones they chose.
  for (const c of await store.collectionRows()) yield counted(asRecord('collection', c, { everyThread: Boolean }));
  for (const f of await store.collectionFileRows()) {
    yield counted(asRecord('collection_file', f));
    for (const chunk of fileOnce(f.sha256, f.kind as FileKind)) yield counted(chunk);
  }
  for (const threadId of await store.libraryThreadIds()) {
    const rows = await store.threadRows(threadId);
    if (!rows) continue; // deleted while the export ran
    yield counted(asRecord('thread', rows.thread, { pinned: Boolean, archived: Boolean, disabledTools: parse, sampling: parse }));
    for (const m of rows.messages) yield counted(asRecord('message', m));
    // Decisions before turns: a finished turn's log refers to them by number.
    for (const d of rows.decisions) yield counted(decisionRecord(d));
    for (const turn of rows.turns) yield counted(asRecord('turn', turn, { events: parse }));
    for (const { type: _type, data, ...e } of rows.turnEvents)
      yield counted({ ...asRecord('turn_event', e), event: parse(data) } as LibraryRecord);
    for (const c of rows.toolCalls) yield counted(asRecord('tool_call', c, { ok: Boolean, repeat: Boolean, result: parse }));
    for (const a of rows.attachments) {
      yield counted(asRecord('attachment', a));
      for (const chunk of fileOnce(a.sha256, a.kind as FileKind)) yield counted(chunk);
    }
  }
  for (const tc of await store.threadCollectionRows()) yield counted(asRecord('thread_collection', tc));
  for (const d of await store.looseDecisionRows()) yield counted(decisionRecord(d));
  yield { type: 'end', records: count };
}

function decisionRecord(d: Awaited<ReturnType<ExportStore['looseDecisionRows']>>[number]): LibraryRecord {
  return {
    type: 'decision',
    id: d.id,
    layerId: d.layer_id,
    scope: d.scope as 'thread',
    scopeKey: d.scope_key,
    turnId: d.turn_id,
    threadId: d.thread_id,
    record: { stepId: d.step_id, at: d.at, modelId: d.model_id, source: d.source as 'native', answers: JSON.parse(d.answers) },
  };
}

/** A file as base64 chunks (at least one, so an empty file arrives too); none when it is not on disk. */
function* fileChunks(files: FileStore, sha256: string, part: FilePart, kind: FileKind): Generator<LibraryRecord> {
  const file = files.open(sha256, part, kind);
  if (!file) return; // attached before files were kept: the text in the attachment row is all there is
  const { fd, size } = file;
  try {
    // Files are named by their hash and never change, so the size read when opened holds.
    const chunks = Math.max(1, Math.ceil(size / FILE_CHUNK_BYTES));
    const buffer = Buffer.alloc(Math.min(FILE_CHUNK_BYTES, Math.max(1, size)));
    for (let chunk = 0; chunk < chunks; chunk++) {
      const n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, size - chunk * FILE_CHUNK_BYTES), chunk * FILE_CHUNK_BYTES);
      yield { type: 'file', sha256, part, chunk, last: chunk === chunks - 1, data: buffer.subarray(0, n).toString('base64') };
    }
  } finally {
    FileStore.close(file);
  }
}

/** The library file as a byte stream, produced as the client reads it. */
/** `theme`: the exporting browser's theme (a cookie, no server setting), carried so an import can bring it back. */
export function exportLibrary({
  store,
  files,
  now,
  theme,
  toolServers,
}: {
  store: ExportStore;
  files: FileStore;
  now: number;
  theme?: string;
  /** The tool servers, their secrets masked (ToolServers.forExport). */
  toolServers?: readonly { name: string; server: unknown }[];
}): ReadableStream<Uint8Array> {
  const source = records(store, files, now, theme, toolServers);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = '';
        while (text.length < PULL_BYTES) {
          const next = await source.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          text += `${JSON.stringify(next.value)}\n`;
        }
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await source.return(undefined); // closes a file being read
      },
    },
    { highWaterMark: 1 },
  );
}
