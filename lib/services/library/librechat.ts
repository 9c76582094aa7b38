import { z } from 'zod';
import { HearthError } from '@/lib/shared/errors';
import { describeIssue, recordSchema, type LibraryRecord } from './format';
import { modelNamed, treeRecords, type ForeignFormat, type TreeNodes } from './foreign';

/**
 * LibreChat's conversation export (a conversation's Export → JSON): `{conversationId, title,
 * endpoint, exportAt, branches, recursive, messages | messagesTree}`. Each message has its
 * `messageId`, `parentMessageId` (all zeros for the first), `isCreatedByUser`, `sender`, `text`
 * or `content` parts (text, and tool calls with their output), `createdAt` as an ISO time;
 * `messagesTree` (a recursive export) nests each message's `children`. The export says no
 * branch is the one shown: the newest message's branch is.
 */

const NO_PARENT = '00000000-0000-0000-0000-000000000000';

type LibreMessage = {
  messageId: string;
  parentMessageId?: string | null;
  isCreatedByUser?: boolean;
  sender?: string;
  text?: string | null;
  content?: unknown[] | null;
  createdAt?: string | number | null;
  error?: boolean;
  children?: LibreMessage[];
};

const messageSchema: z.ZodType<LibreMessage> = z.lazy(() =>
  z
    .object({
      messageId: z.string().max(200),
      parentMessageId: z.string().max(200).nullable().optional(),
      isCreatedByUser: z.boolean().optional(),
      sender: z.string().max(200).optional(),
      text: z.string().max(10_000_000).nullable().optional(),
      content: z.array(z.unknown()).max(10_000).nullable().optional(),
      createdAt: z
        .union([z.string().max(100), z.number().finite()])
        .nullable()
        .optional(),
      error: z.boolean().optional(),
      children: z.array(messageSchema).max(10_000).optional(),
    })
    .passthrough(),
);

export const libreChatExportSchema = z
  .object({
    conversationId: z.string().max(200),
    title: z.string().max(1000).nullable().optional(),
    messages: z.array(messageSchema).max(1_000_000).optional(),
    messagesTree: z.array(messageSchema).max(1_000_000).optional(),
  })
  .passthrough();

/** LibreChat exports one conversation per file. */
export const libreChat: ForeignFormat = {
  source: 'librechat',
  name: "LibreChat's conversation export",
  isConversation: (doc) =>
    doc !== null &&
    typeof doc === 'object' &&
    !Array.isArray(doc) &&
    typeof (doc as { conversationId?: unknown }).conversationId === 'string' &&
    ('messages' in doc || 'messagesTree' in doc),
  records: (doc) => conversationRecords(doc),
};

const time = (v: string | number | null | undefined) => {
  const t = typeof v === 'number' ? v : v ? Date.parse(v) : NaN;
  return Number.isFinite(t) && t >= 0 ? Math.round(t) : 0;
};

/** A message's words: its text, or its content's text parts; tool calls come apart (see `toolParts`). */
function words(m: LibreMessage): string {
  if (!m.content?.length) return (m.text ?? '').trim();
  return m.content
    .map((p) => {
      const part = p as { type?: string; text?: unknown };
      if (part?.type !== 'text') return '';
      return typeof part.text === 'string' ? part.text : ((part.text as { value?: string } | undefined)?.value ?? '');
    })
    .filter(Boolean)
    .join('\n')
    .trim();
}

/** The tool calls inside a message's content, with their output. */
function toolParts(m: LibreMessage): { name: string; result: string }[] {
  return (m.content ?? []).flatMap((p) => {
    const part = p as { type?: string; tool_call?: { name?: string; function?: { name?: string }; output?: unknown } };
    if (part?.type !== 'tool_call' || !part.tool_call) return [];
    const call = part.tool_call;
    const output = call.output;
    return [
      {
        name: String(call.name ?? call.function?.name ?? 'tool').slice(0, 200),
        result: typeof output === 'string' ? output : JSON.stringify(output ?? null),
      },
    ];
  });
}

function conversationRecords(doc: unknown): LibraryRecord[] {
  const parsed = libreChatExportSchema.safeParse(doc);
  if (!parsed.success) throw new HearthError('bad_request', `LibreChat's conversation export: ${describeIssue(parsed.error)}.`);
  const c = parsed.data;
  const flat: LibreMessage[] = [];
  const walk = (list: LibreMessage[], parent: string | null) => {
    for (const m of list) {
      flat.push({ ...m, parentMessageId: m.parentMessageId ?? parent });
      if (m.children?.length) walk(m.children, m.messageId);
    }
  };
  walk(c.messagesTree ?? c.messages ?? [], null);
  const nodes: TreeNodes = new Map();
  const parentOf = (m: LibreMessage) => (m.parentMessageId && m.parentMessageId !== NO_PARENT ? m.parentMessageId : null);
  for (const m of flat) {
    const content = words(m);
    const createdAt = time(m.createdAt);
    // A message's own tool calls happen before its words: they are nodes between it and its question.
    const tools = toolParts(m);
    let parent = parentOf(m);
    tools.forEach((t, i) => {
      const id = `${m.messageId}#tool${i}`;
      nodes.set(id, { parent, children: [], tool: { ...t, createdAt } });
      parent = id;
    });
    nodes.set(m.messageId, {
      parent,
      children: [],
      ...(content && !m.error
        ? {
            message: {
              role: m.isCreatedByUser ? 'user' : 'assistant',
              content,
              createdAt,
              model: modelNamed((m as { model?: unknown }).model),
            },
          }
        : {}),
    });
  }
  for (const [id, n] of nodes) if (n.parent && nodes.has(n.parent)) nodes.get(n.parent)!.children.push(id);
  const newest = flat.reduce<LibreMessage | undefined>((a, m) => (!a || time(m.createdAt) >= time(a.createdAt) ? m : a), undefined);
  const times = flat.map((m) => time(m.createdAt));
  const records = treeRecords({
    source: 'librechat',
    key: c.conversationId,
    title: c.title ?? '',
    createdAt: times.reduce((a, t) => Math.min(a, t), times[0] ?? 0),
    updatedAt: times.reduce((a, t) => Math.max(a, t), 0),
    nodes,
    current: newest?.messageId ?? null,
  });
  return records.map((r) => recordSchema.parse(r));
}
