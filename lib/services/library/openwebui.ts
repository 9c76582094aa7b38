import { z } from 'zod';
import { HearthError } from '@/lib/shared/errors';
import { describeIssue, recordSchema, type LibraryRecord } from './format';
import { entriesOf, modelNamed, treeRecords, type ForeignFormat, type TreeNodes } from './foreign';

/**
 * Open WebUI's chat export (Settings → Chats → Export, or a chat's Download → JSON): an array
 * of its chat rows as its backend returns them (`ChatModel`: id, title, created_at and
 * updated_at in seconds, pinned, and `chat`, the conversation itself). A conversation keeps
 * its messages in `chat.history.messages`, by id, each with its `parentId`, `childrenIds`,
 * role, content and timestamp (seconds), and `chat.history.currentId`, the last message of the
 * branch shown; files are named. Older exports have only `chat.messages`, in order.
 */

const seconds = z.number().finite().min(0).max(1e11).nullable().optional();

const messageSchema = z
  .object({
    id: z.string().max(200),
    parentId: z.string().max(200).nullable().optional(),
    childrenIds: z.array(z.string().max(200)).max(10_000).optional(),
    role: z.string().max(50),
    content: z
      .union([z.string().max(10_000_000), z.array(z.unknown()).max(10_000)])
      .nullable()
      .optional(),
    timestamp: seconds,
    files: z.array(z.object({ name: z.string().max(500).optional(), type: z.string().max(100).optional() }).passthrough()).optional(),
  })
  .passthrough();

export const openWebuiChatSchema = z
  .object({
    id: z.string().max(200),
    title: z.string().max(1000).nullable().optional(),
    created_at: seconds,
    updated_at: seconds,
    pinned: z.boolean().nullable().optional(),
    chat: z
      .object({
        title: z.string().max(1000).optional(),
        history: z
          .object({
            messages: entriesOf(messageSchema),
            currentId: z.string().max(200).nullable().optional(),
          })
          .optional(),
        messages: z.array(messageSchema).max(1_000_000).optional(),
        timestamp: z.number().finite().optional(),
      })
      .passthrough(),
  })
  .passthrough();

/** Open WebUI exports a list of its chat rows ("Export all chats"), or one row. */
export const openWebui: ForeignFormat = {
  source: 'open-webui',
  name: "Open WebUI's chat export",
  isConversation(c) {
    if (c === null || typeof c !== 'object') return false;
    const chat = (c as { chat?: unknown }).chat;
    return chat !== null && typeof chat === 'object' && ('history' in chat || 'messages' in chat);
  },
  records(raw, index) {
    const parsed = openWebuiChatSchema.safeParse(raw);
    if (!parsed.success)
      throw new HearthError('bad_request', `Open WebUI's chat export, chat ${index + 1}: ${describeIssue(parsed.error)}.`);
    return chatRecords(parsed.data).map((r) => recordSchema.parse(r));
  },
};

type Message = z.infer<typeof messageSchema>;

/** A message's words, and its files named. */
function words(m: Message): string {
  const content =
    typeof m.content === 'string'
      ? m.content
      : (m.content ?? [])
          .map((p) =>
            p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '',
          )
          .join('\n');
  const files = (m.files ?? []).map((f) => `[${f.type === 'image' ? 'image' : 'file'}${f.name ? `: ${f.name}` : ''}]`);
  return [content.trim(), ...files].filter(Boolean).join('\n');
}

function chatRecords(row: z.infer<typeof openWebuiChatSchema>): LibraryRecord[] {
  // The row's times are seconds; the conversation's own timestamp, milliseconds.
  const started = row.created_at ? Math.round(row.created_at * 1000) : Math.round(row.chat.timestamp ?? 0);
  const at = (m: Message) => (m.timestamp ? Math.round(m.timestamp * 1000) : started);
  const nodes: TreeNodes = new Map();
  let current: string | null;
  if (row.chat.history) {
    for (const [id, m] of row.chat.history.messages) {
      const content = words(m);
      nodes.set(id, {
        parent: m.parentId ?? null,
        children: m.childrenIds ?? [],
        ...((m.role === 'user' || m.role === 'assistant') && content
          ? { message: { role: m.role, content, createdAt: at(m), model: modelNamed(m.model) } }
          : {}),
      });
    }
    current = row.chat.history.currentId ?? null;
  } else {
    // An older export: the messages in order, each following the one before.
    const list = row.chat.messages ?? [];
    list.forEach((m, i) => {
      const content = words(m);
      nodes.set(m.id, {
        parent: i > 0 ? list[i - 1].id : null,
        children: i + 1 < list.length ? [list[i + 1].id] : [],
        ...((m.role === 'user' || m.role === 'assistant') && content
          ? { message: { role: m.role, content, createdAt: at(m), model: modelNamed(m.model) } }
          : {}),
      });
    });
    current = list.at(-1)?.id ?? null;
  }
  return treeRecords({
    source: 'open-webui',
    key: row.id,
    title: row.title ?? row.chat.title ?? '',
    createdAt: started,
    updatedAt: row.updated_at ? Math.round(row.updated_at * 1000) : started,
    pinned: row.pinned ?? false,
    nodes,
    current,
  });
}
