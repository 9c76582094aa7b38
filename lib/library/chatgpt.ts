import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HearthError } from '@/lib/errors';
import { describeIssue, recordSchema, type LibraryRecord, type RecordOf } from './format';

/**
 * ChatGPT's data export (conversations.json in the zip it mails): an array of conversations,
 * each a `mapping` of nodes by id, every node with its `parent`, its `children` and maybe a
 * `message`, and `current_node`, the last message of the branch ChatGPT showed. Every branch is
 * kept (a regenerated answer or an edited question is a branch in Hearth too) and the one
 * ChatGPT showed is the one shown; system prompts, hidden nodes and empty messages are left
 * out (a message after one left out follows the one before it); text parts are the text, other
 * parts (images, files) are named; tool and browsing output is kept as the tool calls of the
 * answer that follows it. Ids are derived from ChatGPT's, so importing the file twice changes nothing.
 */

const text = z.string().max(10_000_000);
/** Seconds since 1970, as ChatGPT writes them (a float, or null). */
const seconds = z.number().finite().min(0).max(1e11).nullable().optional();

const messageSchema = z.object({
  id: z.string().max(200),
  author: z.object({ role: z.string().max(50), name: z.string().max(200).nullable().optional() }).passthrough(),
  create_time: seconds,
  content: z
    .object({
      content_type: z.string().max(100),
      parts: z.array(z.unknown()).max(10_000).optional(),
      text: text.optional(),
      result: text.optional(),
    })
    .passthrough(),
  recipient: z.string().max(200).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

const nodeSchema = z.object({
  id: z.string().max(200),
  message: messageSchema.nullable().optional(),
  parent: z.string().max(200).nullable().optional(),
  children: z.array(z.string().max(200)).max(10_000).optional(),
});

export const chatgptConversationSchema = z.object({
  title: z.string().max(1000).nullable().optional(),
  create_time: seconds,
  update_time: seconds,
  mapping: z.record(z.string().max(200), nodeSchema),
  current_node: z.string().max(200).nullable().optional(),
  conversation_id: z.string().max(200).optional(),
  id: z.string().max(200).optional(),
});

/** Whether a parsed JSON document looks like ChatGPT's export (before it is checked in detail). */
export function isChatgptExport(doc: unknown): doc is unknown[] {
  return (
    Array.isArray(doc) &&
    doc.length > 0 &&
    doc.every((c) => c !== null && typeof c === 'object' && 'mapping' in c && typeof (c as { mapping: unknown }).mapping === 'object')
  );
}

/** A stable UUID (the version 5 layout) for one of ChatGPT's ids, so a second import finds the first's rows. */
export function derivedId(...parts: string[]): string {
  const h = createHash('sha1')
    .update(`hearth-import\0${parts.join('\0')}`)
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type Message = z.infer<typeof messageSchema>;

/** A message's words: its text parts, and other parts named ("[image]", "[file: report.pdf]"). */
function words(m: Message): string {
  const c = m.content;
  if (c.parts) {
    return c.parts
      .map((p) => {
        if (typeof p === 'string') return p;
        if (p && typeof p === 'object') {
          const o = p as Record<string, unknown>;
          if (typeof o.text === 'string') return o.text;
          const name = typeof o.name === 'string' ? o.name : undefined;
          if (o.content_type === 'image_asset_pointer') return '[image]';
          return name ? `[file: ${name}]` : `[${typeof o.content_type === 'string' ? o.content_type : 'attachment'}]`;
        }
        return '';
      })
      .filter(Boolean)
      .join('\n')
      .trim();
  }
  return (c.text ?? c.result ?? '').trim();
}

const hidden = (m: Message) => m.metadata?.is_visually_hidden_from_conversation === true;

export function chatgptRecords(doc: unknown[]): LibraryRecord[] {
  const out: LibraryRecord[] = [];
  doc.forEach((raw, index) => {
    const parsed = chatgptConversationSchema.safeParse(raw);
    if (!parsed.success) {
      throw new HearthError('bad_request', `ChatGPT's conversations.json, conversation ${index + 1}: ${describeIssue(parsed.error)}.`);
    }
    out.push(...conversation(parsed.data, index));
  });
  return out.map((r) => recordSchema.parse(r));
}

function conversation(c: z.infer<typeof chatgptConversationSchema>, index: number): LibraryRecord[] {
  const key = c.conversation_id ?? c.id ?? `${c.title ?? ''}@${c.create_time ?? index}`;
  const threadId = derivedId('chatgpt', key);
  const started = Math.round((c.create_time ?? 0) * 1000);
  const at = (m: Message | null | undefined, fallback: number) =>
    m?.create_time ? Math.max(0, Math.round(m.create_time * 1000)) : fallback;
  /** Each node's message as Hearth keeps it (user or assistant with words), or its tool output. */
  const kept = new Map<string, { role: 'user' | 'assistant'; content: string; createdAt: number }>();
  const tools = new Map<string, { name: string; result: string; createdAt: number }>();
  let clock = started;
  for (const node of Object.values(c.mapping)) {
    const m = node.message;
    if (!m || hidden(m)) continue;
    const content = words(m);
    clock = at(m, clock);
    if (m.author.role === 'tool') {
      if (content) tools.set(node.id, { name: m.author.name || 'tool', result: content, createdAt: at(m, started) });
    } else if ((m.author.role === 'user' || m.author.role === 'assistant') && content && (m.recipient ?? 'all') === 'all') {
      kept.set(node.id, { role: m.author.role, content, createdAt: at(m, started) });
    }
  }
  /** The nearest kept message above a node (what a message after one left out follows). */
  const keptAbove = (id: string | null | undefined): string | null => {
    const seen = new Set<string>();
    for (let cur = id; cur && !seen.has(cur); cur = c.mapping[cur]?.parent) {
      seen.add(cur);
      if (kept.has(cur)) return cur;
    }
    return null;
  };
  const records: LibraryRecord[] = [];
  const updated = Math.round((c.update_time ?? c.create_time ?? 0) * 1000);
  const leaf = keptAbove(c.current_node);
  records.push({
    type: 'thread',
    id: threadId,
    title: (c.title ?? '').slice(0, 1000),
    titleSource: c.title ? 'user' : 'auto',
    systemPrompt: '',
    pinned: false,
    currentLeafId: leaf ? derivedId('chatgpt', key, leaf) : null,
    createdAt: started,
    updatedAt: Math.max(updated, started),
  });
  // Parents before children: walk from the roots, each branch in the order ChatGPT lists them.
  const order: string[] = [];
  const visited = new Set<string>();
  const roots = Object.values(c.mapping).filter((n) => !n.parent || !c.mapping[n.parent]);
  const stack = roots.map((n) => n.id).reverse();
  while (stack.length) {
    const id = stack.pop()!;
    if (visited.has(id)) continue;
    visited.add(id);
    order.push(id);
    const children = c.mapping[id]?.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) if (c.mapping[children[i]]) stack.push(children[i]);
  }
  const messageId = (node: string) => derivedId('chatgpt', key, node);
  for (const node of order) {
    const m = kept.get(node);
    if (!m) continue;
    const parent = keptAbove(c.mapping[node].parent);
    const isAnswer = m.role === 'assistant';
    const question = isAnswer ? keptQuestionAbove(c, kept, node) : null;
    const turnId = isAnswer && question ? derivedId('chatgpt', key, node, 'turn') : null;
    records.push({
      type: 'message',
      id: messageId(node),
      threadId,
      turnId,
      parentId: parent ? messageId(parent) : null,
      role: m.role,
      content: m.content,
      status: 'complete',
      errorCode: null,
      contextBlock: null,
      createdAt: m.createdAt,
    });
    if (!turnId || !question) continue;
    const turn: RecordOf<'turn'> = {
      type: 'turn',
      id: turnId,
      threadId,
      userMessageId: messageId(question),
      assistantMessageId: messageId(node),
      status: 'done',
      stats: null,
      events: null,
      createdAt: kept.get(question)!.createdAt,
      finishedAt: m.createdAt,
    };
    records.push(turn);
    // The tool and browsing output between the question and this answer, as this turn's calls.
    for (const [toolNode, t] of toolsBetween(c, tools, question, node)) {
      records.push({
        type: 'tool_call',
        id: `${turnId}:${toolNode}`.slice(0, 200),
        turnId,
        threadId,
        name: t.name.slice(0, 200),
        arguments: '{}',
        ok: true,
        result: t.result,
        repeat: false,
        ms: 0,
        createdAt: t.createdAt,
      });
    }
  }
  return records;
}

/** The question an answer replies to: the nearest kept user message above it. */
function keptQuestionAbove(c: z.infer<typeof chatgptConversationSchema>, kept: Map<string, { role: string }>, node: string): string | null {
  const seen = new Set<string>();
  for (let cur = c.mapping[node]?.parent; cur && !seen.has(cur); cur = c.mapping[cur]?.parent) {
    seen.add(cur);
    if (kept.get(cur)?.role === 'user') return cur;
  }
  return null;
}

/** Tool output on the path from a question down to its answer. */
function toolsBetween(
  c: z.infer<typeof chatgptConversationSchema>,
  tools: Map<string, { name: string; result: string; createdAt: number }>,
  question: string,
  answer: string,
): [string, { name: string; result: string; createdAt: number }][] {
  const path: string[] = [];
  const seen = new Set<string>();
  for (let cur = c.mapping[answer]?.parent; cur && cur !== question && !seen.has(cur); cur = c.mapping[cur]?.parent) {
    seen.add(cur);
    path.unshift(cur);
  }
  return path.filter((n) => tools.has(n)).map((n) => [n, tools.get(n)!]);
}
