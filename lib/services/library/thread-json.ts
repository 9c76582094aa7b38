import type { Awaitable } from '@/lib/shared/awaitable';
import { z } from 'zod';
import { isMimeType } from '@/lib/data/files/mime';
import { DECISIONS_LAYER_ID } from '@/lib/turns/decide/history';
import { HearthError } from '@/lib/shared/errors';
import { decisionRecordSchema, describeIssue, FORMATS_READ, recordSchema, type LibraryRecord, type RecordOf } from './format';

/**
 * One thread's JSON export (GET /api/threads/:id/export?format=json, the thread view) as
 * library records, so it imports through the same checks and the same transaction. The view
 * keeps what the thread page shows: messages, tool calls, decisions, set-aside drafts and
 * calculations (rebuilt here as the turn's log), attachments by name and hash. It carries no
 * file contents: an attachment whose file this library already has takes its text from there,
 * others come back as names only. To move files, export the library.
 */

/** A thread's JSON is read whole; larger ones should travel as a library file. */
export const THREAD_JSON_MAX_BYTES = 256 * 1024 * 1024;

/** Ids go into URLs: an imported one must be a UUID, as Hearth makes them. */
const id = z.string().uuid('must be a UUID, as Hearth makes them');
const time = z.number().int().min(0);

const messageSchema = z.object({
  id,
  /** The message it follows (exports written before branches have none: each follows the one before). */
  parentId: id.nullable().optional(),
  role: z.enum(['user', 'assistant']),
  content: z.string().max(10_000_000),
  status: z.enum(['streaming', 'complete', 'interrupted', 'error']),
  errorCode: z.string().max(100).nullable(),
  /** The model that wrote an answer (exports written before models were kept have none). */
  model: z.string().max(500).nullable().optional(),
  turnId: id.nullable(),
  createdAt: time,
  toolCalls: z.array(
    z.object({
      id: z.string().min(1).max(400),
      name: z.string().max(200),
      arguments: z.string().max(1_000_000),
      ok: z.boolean(),
      result: z.unknown(),
      repeat: z.boolean(),
      ms: z.number().int().min(0),
    }),
  ),
  attachments: z.array(
    z.object({
      id,
      messageId: id.nullable(),
      name: z.string().max(500),
      mime: z.string().refine(isMimeType, 'must be a content type such as text/plain'),
      size: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
  decisions: z.array(decisionRecordSchema),
  setAside: z.array(
    z.object({
      text: z.string().max(10_000_000),
      reason: z.enum(['deferral', 'refusal', 'freshness', 'verdict', 'tool_call', 'no_research']),
      detail: z.string().max(10_000).optional(),
      query: z.string().max(10_000).optional(),
    }),
  ),
  calculation: z
    .object({
      expression: z.string().max(10_000),
      result: z.string().max(100_000),
      exact: z.boolean(),
      fraction: z.string().max(100_000).optional(),
    })
    .nullable(),
  /** The model's thinking, each call's, and how many tool calls came before it (exports written before it was kept have none). */
  thinking: z
    .array(
      z.object({
        text: z.string().max(10_000_000),
        toolCallsBefore: z.number().int().min(0),
        ms: z.number().finite().min(0).optional(),
        tokens: z.number().int().min(0).optional(),
      }),
    )
    .max(10_000)
    .optional(),
  /** The turn's figures (exports written before they were shown have none). */
  stats: z
    .record(z.string().max(100), z.union([z.number().finite(), z.boolean()]))
    .nullable()
    .optional(),
});

const threadViewSchema = z.object({
  id,
  title: z.string().max(1000),
  createdAt: time,
  updatedAt: time,
  pinned: z.boolean(),
  systemPrompt: z.string().max(100_000),
  /** The thread's thinking (exports written before it was kept have none). */
  thinking: z.enum(['default', 'on', 'off']).nullable().optional(),
  model: z.string().max(500).nullable().optional(),
  /** The branch shown, its messages, and those of every other branch. */
  currentLeafId: id.nullable().optional(),
  messages: z.array(messageSchema).max(1_000_000),
  otherMessages: z.array(messageSchema).max(1_000_000).optional(),
  decisions: z.array(decisionRecordSchema),
});

type View = z.infer<typeof threadViewSchema>;
/** What the library knows of an attachment's file by its hash (a thread's JSON carries no file text). */
type Known = (sha256: string) => Awaitable<{ text: string; kind: string; chars: number; lines: number } | undefined>;

const TURN_STATUS = { complete: 'done', error: 'error', interrupted: 'cancelled', streaming: 'interrupted' } as const;

export async function threadJsonRecords(doc: unknown, known: Known): Promise<LibraryRecord[]> {
  const parsed = threadViewSchema.safeParse(doc);
  if (!parsed.success) {
    throw new HearthError(
      'bad_request',
      `This JSON is none of the files Hearth imports (as a thread's JSON export: ${describeIssue(parsed.error)}). Hearth imports ${FORMATS_READ}.`,
    );
  }
  const view = parsed.data;
  const out: LibraryRecord[] = [
    // A title carried in a file is kept as the user's: nothing rewrites it.
    {
      type: 'thread',
      id: view.id,
      title: view.title,
      titleSource: view.title ? 'user' : 'auto',
      systemPrompt: view.systemPrompt,
      pinned: view.pinned,
      currentLeafId: view.currentLeafId ?? null,
      thinking: view.thinking ?? null,
      model: view.model ?? null,
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
    },
  ];
  // Every branch, each message after the one it follows (older first: a parent is always older).
  const all = [...view.messages, ...(view.otherMessages ?? [])].map((m, i, list) => ({
    ...m,
    parentId: m.parentId !== undefined ? m.parentId : i > 0 ? list[i - 1].id : null,
  }));
  const byId = new Map(all.map((m) => [m.id, m]));
  all.sort(
    (a, b) =>
      a.createdAt - b.createdAt || (a.role === b.role ? 0 : a.role === 'assistant' ? -1 : 1) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  for (const m of all) {
    out.push({
      type: 'message',
      id: m.id,
      threadId: view.id,
      turnId: m.turnId,
      parentId: m.parentId,
      role: m.role,
      content: m.content,
      status: m.status,
      errorCode: m.errorCode,
      contextBlock: null,
      model: m.model ?? null,
      createdAt: m.createdAt,
    });
  }
  let decisionNumber = 0;
  const decision = (record: View['decisions'][number], turnId: string | null): RecordOf<'decision'> => ({
    type: 'decision',
    id: ++decisionNumber,
    layerId: DECISIONS_LAYER_ID,
    scope: 'thread',
    scopeKey: view.id,
    turnId,
    threadId: view.id,
    record,
  });
  const withTurn = new Set<string>();
  for (const m of all.filter((x) => x.role === 'assistant' && x.turnId)) {
    // The question it answers: its parent (a regenerated answer's turn is not the question's own).
    const parent = m.parentId ? byId.get(m.parentId) : undefined;
    const question = parent?.role === 'user' ? parent : all.find((x) => x.role === 'user' && x.turnId === m.turnId);
    if (!question) continue;
    for (const d of m.decisions) {
      withTurn.add(`${d.stepId}@${d.at}`);
      out.push(decision(d, m.turnId));
    }
    out.push({
      type: 'turn',
      id: m.turnId!,
      threadId: view.id,
      userMessageId: question.id,
      assistantMessageId: m.id,
      status: TURN_STATUS[m.status],
      stats: m.stats ?? null,
      events: turnLog(m),
      createdAt: question.createdAt,
      finishedAt: m.status === 'streaming' ? null : m.createdAt,
    });
    for (const c of m.toolCalls) {
      out.push({
        type: 'tool_call',
        id: c.id,
        turnId: m.turnId!,
        threadId: view.id,
        name: c.name,
        arguments: c.arguments,
        ok: c.ok,
        result: c.result ?? null,
        repeat: c.repeat,
        ms: c.ms,
        createdAt: m.createdAt,
      });
    }
  }
  // Records the thread kept that no message shows (their turn is gone).
  for (const d of view.decisions) if (!withTurn.has(`${d.stepId}@${d.at}`)) out.push(decision(d, null));
  for (const m of all) {
    for (const a of m.attachments) {
      const here = await known(a.sha256);
      out.push({
        type: 'attachment',
        id: a.id,
        messageId: m.id,
        name: a.name,
        mime: a.mime,
        size: a.size,
        sha256: a.sha256,
        text: here?.text ?? '',
        kind: (here?.kind as 'text') ?? 'text',
        chars: here?.chars ?? 0,
        lines: here?.lines ?? 0,
        createdAt: m.createdAt,
      });
    }
  }
  // Everything built here goes through the same checks as a library file's lines.
  return out.map((r) => recordSchema.parse(r));
}

/** The turn's log as the thread page reads it back: set-aside drafts and the calculation (lib/turns/supervisor/compact.ts). */
function turnLog(m: z.infer<typeof messageSchema>): RecordOf<'turn'>['events'] {
  const thinking = m.thinking ?? [];
  if (m.setAside.length === 0 && !m.calculation && thinking.length === 0) return null;
  const log: NonNullable<RecordOf<'turn'>['events']> = [[1, 'turn']];
  // Each call's thinking where it stood among the tool calls (kept as references to their rows).
  if (thinking.length) {
    const think = (b: (typeof thinking)[number]) => {
      log.push([log.length + 1, { type: 'thinking', text: b.text, whole: true }]);
      if (b.ms !== undefined) log.push([log.length + 1, { type: 'thought', ms: b.ms, tokens: b.tokens ?? 0 }]);
    };
    let next = 0;
    m.toolCalls.forEach((c, i) => {
      for (; next < thinking.length && thinking[next].toolCallsBefore <= i; next++) think(thinking[next]);
      log.push([log.length + 1, { tool_call: c.id }]);
    });
    for (; next < thinking.length; next++) think(thinking[next]);
  }
  for (const d of m.setAside) {
    log.push([log.length + 1, { type: 'draft', text: d.text }]);
    log.push([
      log.length + 1,
      {
        type: 'draft_rejected',
        reason: d.reason,
        ...(d.detail !== undefined ? { detail: d.detail } : {}),
        ...(d.query !== undefined ? { query: d.query } : {}),
      },
    ]);
  }
  if (m.calculation) log.push([log.length + 1, { type: 'calculation', ...m.calculation }]);
  if (m.status === 'complete') log.push([log.length + 1, 'message'], [log.length + 2, 'done']);
  return log;
}
