import { z } from 'zod';
import { HearthError } from '@/lib/shared/errors';
import { describeIssue, recordSchema, type LibraryRecord } from './format';
import { entriesOf, modelNamed, treeRecords, type ForeignFormat, type TreeNode, type TreeNodes } from './foreign';

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
  mapping: entriesOf(nodeSchema),
  current_node: z.string().max(200).nullable().optional(),
  conversation_id: z.string().max(200).optional(),
  id: z.string().max(200).optional(),
});

/** conversations.json is a list of these (one on its own is taken too). */
export const chatgpt: ForeignFormat = {
  source: 'chatgpt',
  name: "ChatGPT's conversations.json",
  isConversation: (c) => c !== null && typeof c === 'object' && 'mapping' in c && typeof (c as { mapping: unknown }).mapping === 'object',
  records(raw, index) {
    const parsed = chatgptConversationSchema.safeParse(raw);
    if (!parsed.success) {
      throw new HearthError('bad_request', `ChatGPT's conversations.json, conversation ${index + 1}: ${describeIssue(parsed.error)}.`);
    }
    return conversation(parsed.data, index).map((r) => recordSchema.parse(r));
  },
};

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

function conversation(c: z.infer<typeof chatgptConversationSchema>, index: number): LibraryRecord[] {
  const started = Math.round((c.create_time ?? 0) * 1000);
  const at = (m: Message) => (m.create_time ? Math.max(0, Math.round(m.create_time * 1000)) : started);
  const nodes: TreeNodes = new Map();
  for (const [, node] of c.mapping) {
    const m = node.message;
    const entry: TreeNode = { parent: node.parent ?? null, children: node.children ?? [] };
    if (m && !hidden(m)) {
      const content = words(m);
      if (m.author.role === 'tool') {
        if (content) entry.tool = { name: m.author.name || 'tool', result: content, createdAt: at(m) };
      } else if ((m.author.role === 'user' || m.author.role === 'assistant') && content && (m.recipient ?? 'all') === 'all') {
        entry.message = { role: m.author.role, content, createdAt: at(m), model: modelNamed(m.metadata?.model_slug) };
      }
    }
    nodes.set(node.id, entry);
  }
  return treeRecords({
    source: 'chatgpt',
    key: c.conversation_id ?? c.id ?? `${c.title ?? ''}@${c.create_time ?? index}`,
    title: c.title ?? '',
    createdAt: started,
    updatedAt: Math.round((c.update_time ?? c.create_time ?? 0) * 1000),
    nodes,
    current: c.current_node ?? null,
  });
}
