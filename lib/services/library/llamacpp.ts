import { z } from 'zod';
import { nestsDeeperThan, tooDeep } from '@/lib/shared/json-depth';
import { HearthError } from '@/lib/shared/errors';
import { describeIssue, recordSchema, type LibraryRecord } from './format';
import { modelNamed, treeRecords, type ForeignFormat, type TreeNode, type TreeNodes } from './foreign';

/**
 * llama.cpp's own web page (llama-server's UI, which keeps its history only in the browser):
 * a conversation's Download, or Export of several, as its source writes them
 * (tools/ui/src/lib/services/conversation-transfer.service.ts). Today that is JSON Lines, a
 * `{"type":"session","harness":"llama.app",…conversation}` line then one
 * `{"type":"message","message":{…}}` line per message, one session after another (a zip of
 * such files for several; unzip it and import each). Earlier versions wrote JSON:
 * `{conv, messages}` or an array of them; both are read. A conversation has `id`, `name`,
 * `lastModified` (ms) and `currNode`, the last message shown; a message has `id`, `parent`,
 * `children`, `role`, `content`, `timestamp` (ms), `type` ("root" for the empty first node),
 * its files in `extra` (named), and for tool use the assistant's `toolCalls` and each result's
 * `role: "tool"` with its `toolCallId`.
 */

const ms = z.number().finite().min(0).max(8.64e15).nullable().optional();

const messageSchema = z
  .object({
    id: z.string().max(200),
    type: z.string().max(50).optional(),
    timestamp: ms,
    role: z.string().max(50),
    content: z.string().max(10_000_000).nullable().optional(),
    parent: z.string().max(200).nullable().optional(),
    children: z.array(z.string().max(200)).max(10_000).optional(),
    extra: z.array(z.object({ type: z.string().max(100).optional(), name: z.string().max(500).optional() }).passthrough()).optional(),
    toolCalls: z
      .union([z.string().max(10_000_000), z.array(z.unknown()).max(10_000)])
      .nullable()
      .optional(),
    toolCallId: z.string().max(200).nullable().optional(),
  })
  .passthrough();

const sessionSchema = z.object({
  conv: z
    .object({
      id: z.string().max(200),
      name: z.string().max(1000).nullable().optional(),
      lastModified: ms,
      currNode: z.string().max(200).nullable().optional(),
      pinned: z.boolean().optional(),
    })
    .passthrough(),
  messages: z.array(messageSchema).max(1_000_000),
});

type Session = z.infer<typeof sessionSchema>;

/** The page's older JSON export: `{conv, messages}`, or a list of them. */
export const llamaCpp: ForeignFormat = {
  source: 'llama.cpp',
  name: "llama.cpp's conversation export",
  isConversation: (s) => s !== null && typeof s === 'object' && 'conv' in s && 'messages' in s,
  records(raw, index) {
    const parsed = sessionSchema.safeParse(raw);
    if (!parsed.success) {
      throw new HearthError('bad_request', `llama.cpp's conversation export, conversation ${index + 1}: ${describeIssue(parsed.error)}.`);
    }
    return sessionRecords(parsed.data).map((r) => recordSchema.parse(r));
  },
};

/** Whether a line (the file's first) is a session record of the page's JSON Lines export. */
export function isSessionLine(value: unknown): boolean {
  return value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'session';
}

/**
 * The page's JSON Lines export read a line at a time, as the page itself reads it back: a
 * session line, then its message lines. `line` returns a session once the next one starts
 * (`end` the last), so one session at a time is held.
 */
export class SessionLines {
  private current: { conv: Record<string, unknown>; messages: unknown[] } | null = null;

  line(text: string, lineNumber: number, where = "llama.cpp's conversation export"): unknown {
    if (!text.trim()) return null;
    let record: { type?: unknown; message?: unknown; [k: string]: unknown };
    if (nestsDeeperThan(text)) throw new HearthError('bad_request', `${where}, line ${lineNumber}: ${tooDeep('it')}.`);
    try {
      record = JSON.parse(text) as typeof record;
    } catch {
      throw new HearthError('bad_request', `${where}, line ${lineNumber}: not JSON (is the file cut or changed?).`);
    }
    if (record?.type === 'session') {
      const done = this.current;
      const { type: _type, harness: _harness, ...conv } = record;
      this.current = { conv, messages: [] };
      return done;
    }
    if (record?.type === 'message') {
      if (!this.current) throw new HearthError('bad_request', `${where}, line ${lineNumber}: a message before any session line.`);
      this.current.messages.push(record.message);
    }
    // Other record types are a newer page's: left out, as the page itself does.
    return null;
  }

  end(): unknown {
    const done = this.current;
    this.current = null;
    return done;
  }
}

type Message = z.infer<typeof messageSchema>;

const toolCallsOf = (m: Message): { id?: string; function?: { name?: string } }[] => {
  try {
    const calls = typeof m.toolCalls === 'string' ? JSON.parse(m.toolCalls) : m.toolCalls;
    return Array.isArray(calls) ? calls : [];
  } catch {
    return [];
  }
};

function words(m: Message): string {
  const files = (m.extra ?? []).map((f) => `[${/image/i.test(f.type ?? '') ? 'image' : 'file'}${f.name ? `: ${f.name}` : ''}]`);
  return [(m.content ?? '').trim(), ...files].filter(Boolean).join('\n');
}

function sessionRecords({ conv, messages }: Session): LibraryRecord[] {
  const times = messages.map((m) => m.timestamp ?? 0).filter((t) => t > 0);
  const started = times.reduce((a, t) => Math.min(a, t), times[0] ?? conv.lastModified ?? 0);
  // A tool's result is named by the call it answers.
  const callNames = new Map<string, string>();
  for (const m of messages) for (const c of toolCallsOf(m)) if (c.id && c.function?.name) callNames.set(c.id, c.function.name);
  const nodes: TreeNodes = new Map();
  for (const m of messages) {
    const content = words(m);
    const createdAt = Math.round(m.timestamp ?? started);
    const node: TreeNode = { parent: m.parent ?? null, children: m.children ?? [] };
    if (m.role === 'tool') {
      if (content) node.tool = { name: (m.toolCallId && callNames.get(m.toolCallId)) || 'tool', result: content, createdAt };
    } else if ((m.role === 'user' || m.role === 'assistant') && m.type !== 'root' && content) {
      node.message = { role: m.role, content, createdAt, model: modelNamed(m.model) };
    }
    nodes.set(m.id, node);
  }
  return treeRecords({
    source: 'llama.cpp',
    key: conv.id,
    title: conv.name ?? '',
    createdAt: Math.round(started),
    updatedAt: Math.round(conv.lastModified ?? started),
    pinned: conv.pinned ?? false,
    nodes,
    current: conv.currNode ?? null,
  });
}
