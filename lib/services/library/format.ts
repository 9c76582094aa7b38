import { z } from 'zod';
import { samplingSchema } from '@/lib/contract/sampling';
import { fileKinds } from '@/lib/contract/statuses';
import { PROMPT_NAME } from '@/lib/contract/requests';
import { issueInWords, issuePath } from '@/lib/shared/zod-issue';
import { isMimeType } from '@/lib/data/files/mime';

/**
 * The library file: everything Hearth keeps, as JSON Lines (one record a line), so it can be
 * written and read as a stream whatever its size. The first line says what the file is:
 *
 *   {"type":"hearth-library","version":1,"exportedAt":…}
 *
 * then the settings changed in the Settings page (and the exporting browser's theme), then memory facts, then each thread followed by its rows (messages, decisions, turns and
 * their event logs, tool calls, attachments), each attached file's bytes as base64 chunks
 * right after its attachment. Ids are kept, so importing a file twice changes nothing: a row
 * whose id is already there is left as it is.
 *
 * Every record is checked here on the way in (a file is outside input): types, sizes, and the
 * shapes the app renders (decision answers, turn events), so nothing imported can break a view.
 */

export const LIBRARY_FORMAT = 'hearth-library';
export const LIBRARY_VERSION = 1;

/** What an import can be, for a refusal to name. */
export const FORMATS_READ = `a Hearth library file (the .jsonl from "Export all", which starts with {"type":"${LIBRARY_FORMAT}"…}), a Hearth thread's JSON export, ChatGPT's conversations.json (from its data export, or the export's zip as mailed), Open WebUI's chat export, LibreChat's conversation export (JSON), or llama.cpp's web page's conversations export (a .jsonl, or its .zip of several)`;

/** Bytes of a file per chunk line (base64 makes it 4/3 larger). */
export const FILE_CHUNK_BYTES = 768 * 1024;
/** The longest line a library file may have: a long message, or a file chunk. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Every id Hearth makes is a UUID; the page puts ids into URLs, so an imported one must be one too (no "../memories/x"). */
const id = z.string().uuid('must be a UUID, as Hearth makes them');
const time = z.number().int().min(0).max(8.64e15);
const text = (max: number) => z.string().max(max);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex');
const jsonValue: z.ZodType<unknown> = z.unknown().refine((v) => v === undefined || JSON.stringify(v) !== undefined, 'must be JSON');

export const decideAnswerSchema = z.union([
  z.object({ kind: z.literal('boolean'), value: z.boolean(), p: z.number().min(0).max(1) }).strict(),
  z.object({ kind: z.literal('choice'), value: text(2000), p: z.number().min(0).max(1) }).strict(),
  z.object({ kind: z.literal('score'), level: text(2000), value: z.number().finite() }).strict(),
  z.object({ kind: z.literal('text'), value: text(20_000) }).strict(),
  z.object({ refused: z.literal(true), reason: text(2000) }).strict(),
]);

export const decisionRecordSchema = z
  .object({
    stepId: text(200),
    at: time,
    modelId: text(500),
    source: z.enum(['native', 'estimated', 'classifier', 'program']),
    answers: z.record(z.string().max(200), decideAnswerSchema),
  })
  .strict();

const statsSchema = z.record(z.string().max(100), z.union([z.number().finite(), z.boolean()]));

/** A turn event as the app streams and replays it (lib/contract/events.ts). */
export const turnEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('turn'), turnId: id, threadId: id, userMessageId: id, assistantMessageId: id }).strict(),
  z
    .object({
      type: z.literal('status'),
      stage: z.enum(['queued', 'loading', 'thinking', 'searching', 'checking', 'writing', 'resumed']),
      queuePosition: z.number().int().min(0).optional(),
      model: text(500).optional(),
      since: time.optional(),
    })
    .strict(),
  z.object({ type: z.literal('decision'), record: decisionRecordSchema }).strict(),
  z.object({ type: z.literal('delta'), text: text(1_000_000) }).strict(),
  // A compacted turn keeps each call's thinking as one event, as long as the draft can be.
  z.object({ type: z.literal('thinking'), text: text(10_000_000), whole: z.literal(true).optional() }).strict(),
  z.object({ type: z.literal('thought'), ms: z.number().finite().min(0), tokens: z.number().int().min(0) }).strict(),
  z.object({ type: z.literal('draft'), text: text(10_000_000) }).strict(),
  z.object({ type: z.literal('tool_call'), id: text(200), name: text(200), arguments: text(1_000_000) }).strict(),
  z
    .object({ type: z.literal('approval_needed'), callId: text(200), server: text(200), tool: text(200), arguments: text(1_000_000) })
    .strict(),
  z.object({ type: z.literal('approval'), callId: text(200), allow: z.boolean(), always: z.boolean().optional() }).strict(),
  z
    .object({
      type: z.literal('tool_result'),
      id: text(200),
      name: text(200),
      ok: z.boolean(),
      result: jsonValue.optional(),
      error: text(100_000).optional(),
      repeat: z.boolean().optional(),
      ms: z.number().finite().min(0),
    })
    .strict(),
  z
    .object({
      type: z.literal('draft_rejected'),
      reason: z.enum(['deferral', 'refusal', 'freshness', 'verdict', 'tool_call', 'no_research']),
      detail: text(10_000).optional(),
      query: text(10_000).optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('calculation'),
      expression: text(10_000),
      result: text(100_000),
      exact: z.boolean(),
      fraction: text(100_000).optional(),
    })
    .strict(),
  z.object({ type: z.literal('memory'), facts: z.array(text(1000)).max(1000) }).strict(),
  z.object({ type: z.literal('message'), id: id, content: text(10_000_000) }).strict(),
  z.object({ type: z.literal('error'), code: text(100), message: text(10_000), fuelUsed: z.number().finite().optional() }).strict(),
  z.object({ type: z.literal('done'), turnId: id, stats: statsSchema }).strict(),
]);

/** An entry of a finished turn's compacted log (lib/turns/supervisor/compact.ts `toStored`). */
const compactEntrySchema = z.union([
  turnEventSchema,
  z.enum(['turn', 'done', 'message', 'answer-draft']),
  z.object({ decision: z.number().int() }).strict(),
  z.object({ tool_call: text(200) }).strict(),
  z.object({ tool_result: z.tuple([text(200), z.number().finite().min(0)]) }).strict(),
]);

const seq = z.number().int().min(1).max(10_000_000);

export const headerSchema = z.object({ type: z.literal(LIBRARY_FORMAT), version: z.number().int(), exportedAt: time }).strict();

export const recordSchema = z.discriminatedUnion('type', [
  /** A setting the Settings page changed (lib/services/settings-values.ts), or `theme`: the exporting browser's theme. */
  z.object({ type: z.literal('setting'), key: text(100), value: jsonValue, updatedAt: time }).strict(),
  z.object({ type: z.literal('memory'), id, text: text(1000), createdAt: time, updatedAt: time }).strict(),
  /** A saved prompt (files written before saved prompts have none). */
  z
    .object({
      type: z.literal('prompt'),
      id,
      name: z.string().regex(PROMPT_NAME, 'must be a prompt name as typed after /'),
      text: text(20_000),
      createdAt: time,
      updatedAt: time,
    })
    .strict(),
  z
    .object({
      type: z.literal('thread'),
      id,
      title: text(1000),
      titleSource: z.enum(['auto', 'model', 'user']),
      systemPrompt: text(100_000),
      pinned: z.boolean(),
      /** The branch shown (files written before branches have none: the newest message). */
      currentLeafId: id.nullable().optional(),
      /** Its thinking and the tools it switched off (files written before these have none). */
      thinking: z.enum(['default', 'on', 'off']).nullable().optional(),
      disabledTools: z.array(text(100)).max(500).nullable().optional(),
      /** The model its turns ask for (files written before models were kept have none). */
      model: text(500).nullable().optional(),
      /** Sampling for its replies (files written before sampling have none). */
      sampling: samplingSchema.nullable().optional(),
      /** Its folder and whether it is archived (files written before folders have neither). */
      folderId: id.nullable().optional(),
      archived: z.boolean().optional(),
      createdAt: time,
      updatedAt: time,
    })
    .strict(),
  z.object({ type: z.literal('folder'), id, name: text(100), createdAt: time }).strict(),
  /** A knowledge collection, its files (their bytes as file records, indexed again where imported) and the threads that chose it. */
  z.object({ type: z.literal('collection'), id, name: text(100), everyThread: z.boolean(), createdAt: time, updatedAt: time }).strict(),
  z
    .object({
      type: z.literal('collection_file'),
      id,
      collectionId: id,
      name: text(500),
      mime: z.string().refine(isMimeType, 'must be a content type such as text/plain'),
      size: z.number().int().min(0),
      sha256,
      kind: z.enum(['text', 'pdf', 'docx', 'image', 'sheet']),
      createdAt: time,
    })
    .strict(),
  z.object({ type: z.literal('thread_collection'), threadId: id, collectionId: id }).strict(),
  /**
   * A tool server (its mcp.json entry) with its secrets masked: env and header values, and what
   * looks like a token in args or url, are written as ••••••. An import only proposes it.
   */
  z
    .object({
      type: z.literal('tool_server'),
      name: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be a tool server name'),
      server: jsonValue,
    })
    .strict(),
  z
    .object({
      type: z.literal('message'),
      id,
      threadId: id,
      turnId: id.nullable(),
      /** The message this one follows; files written before branches have none (each follows the one before it). */
      parentId: id.nullable().optional(),
      role: z.enum(['user', 'assistant']),
      content: text(10_000_000),
      status: z.enum(['streaming', 'complete', 'interrupted', 'error']),
      errorCode: text(100).nullable(),
      contextBlock: text(1_000_000).nullable(),
      /** The model that wrote an answer (files written before models were kept have none). */
      model: text(500).nullable().optional(),
      /** The user's thumbs on an answer: 1 up, -1 down (files written before thumbs have none). */
      rating: z
        .union([z.literal(1), z.literal(-1)])
        .nullable()
        .optional(),
      createdAt: time,
    })
    .strict(),
  z
    .object({
      type: z.literal('decision'),
      /** The record's number in the exporting library; turn logs refer to it. */
      id: z.number().int().min(1),
      layerId: text(200),
      scope: z.enum(['execution', 'thread', 'resource']),
      scopeKey: text(200),
      turnId: id.nullable(),
      threadId: id.nullable(),
      record: decisionRecordSchema,
    })
    .strict(),
  z
    .object({
      type: z.literal('turn'),
      id,
      threadId: id,
      userMessageId: id,
      assistantMessageId: id.nullable(),
      status: z.enum(['queued', 'running', 'done', 'error', 'cancelled', 'interrupted']),
      stats: statsSchema.nullable(),
      events: z
        .array(z.tuple([seq, compactEntrySchema]))
        .max(1_000_000)
        .nullable(),
      createdAt: time,
      finishedAt: time.nullable(),
    })
    .strict(),
  z.object({ type: z.literal('turn_event'), turnId: id, seq, event: turnEventSchema, createdAt: time }).strict(),
  z.object({ type: z.literal('turn_step'), turnId: id, seq, kind: text(100), data: jsonValue, createdAt: time }).strict(),
  z
    .object({
      type: z.literal('tool_call'),
      id: text(400),
      turnId: id,
      threadId: id,
      name: text(200),
      arguments: text(1_000_000),
      ok: z.boolean(),
      result: jsonValue,
      repeat: z.boolean(),
      ms: z.number().int().min(0),
      createdAt: time,
    })
    .strict(),
  z
    .object({
      type: z.literal('attachment'),
      id,
      messageId: id.nullable(),
      name: text(500),
      mime: z.string().refine(isMimeType, 'must be a content type such as text/plain'),
      size: z.number().int().min(0),
      sha256,
      text: text(10_000_000),
      kind: z.enum(fileKinds),
      chars: z.number().int().min(0),
      lines: z.number().int().min(0),
      width: z.number().int().min(1).max(100_000).nullable().optional(),
      height: z.number().int().min(1).max(100_000).nullable().optional(),
      createdAt: time,
    })
    .strict(),
  z
    .object({
      type: z.literal('file'),
      sha256,
      /** The file as uploaded, or the text extracted from a PDF or Word file. */
      part: z.enum(['original', 'text']),
      /** Chunks of one part come in order from 0; the last says so. */
      chunk: z.number().int().min(0),
      last: z.boolean(),
      data: z
        .string()
        .max(Math.ceil((FILE_CHUNK_BYTES * 4) / 3) + 4)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
    })
    .strict(),
]);

export type LibraryRecord = z.infer<typeof recordSchema>;
export type RecordOf<T extends LibraryRecord['type']> = Extract<LibraryRecord, { type: T }>;

/** A zod failure as one line a person can act on: where, and what was wrong, in words ('its "id" is missing'). */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length ? `its "${issuePath(issue)}"` : 'the record';
  return `${where} ${issueInWords(issue)}`;
}
