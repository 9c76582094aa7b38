import { createHash } from 'node:crypto';
import type { ImportSummary } from '@/lib/contract/responses';
import { z } from 'zod';
import { HearthError } from '@/lib/shared/errors';
import type { LibraryRecord, RecordOf } from './format';

/**
 * Another app's conversation as Hearth's records: the part every importer shares. The app's
 * messages arrive as a tree of nodes (each with its parent and children, in the app's order),
 * some carrying a message Hearth keeps (a question or an answer with words) or a tool's output;
 * the rest (system prompts, hidden nodes, empty messages) carry nothing and are passed through:
 * a message below one follows the nearest kept message above it. Every branch is kept, the one
 * the app showed (`current`) is shown, each answer gets a turn for the question above it, and
 * tool output between that question and the answer becomes the turn's tool calls. Ids derive
 * from the app's, so importing the same file twice changes nothing.
 */

/**
 * One app's export as the importer reads it: a conversation at a time, so that a file holding
 * thousands (a list of them) streams in one by one (json-entries.ts, import.ts).
 */
export type ForeignFormat = {
  source: Exclude<ImportSummary['source'], 'library' | 'thread'>;
  /** The file as a refusal names it. */
  name: string;
  /** Whether one conversation (an entry of the file's list, or the whole file) has this app's shape, before it is checked in detail. */
  isConversation(value: unknown): boolean;
  /** One conversation's records, checked; `index` (from 0) names it in a refusal. */
  records(value: unknown, index: number): LibraryRecord[];
};

/**
 * An object of entries by id (ChatGPT's `mapping`, Open WebUI's `messages`) as [id, value]
 * pairs, each value checked: read as a plain record, an id such as `__proto__` would be lost
 * on the way (it sets the object's prototype instead of adding an entry).
 */
export const entriesOf = <T extends z.ZodType>(value: T, max = 100_000) =>
  z
    .custom<object>((v) => v !== null && typeof v === 'object' && !Array.isArray(v), 'must be an object of entries by id')
    .transform((o, ctx) => {
      const entries = Object.entries(o);
      if (entries.length > max) {
        ctx.addIssue({ code: 'custom', message: `has more than ${max} entries` });
        return z.NEVER;
      }
      const out: [string, z.output<T>][] = [];
      for (const [key, entry] of entries) {
        if (key.length > 200) {
          ctx.addIssue({ code: 'custom', message: `has an id longer than 200 characters (${key.slice(0, 40)}…)` });
          return z.NEVER;
        }
        const parsed = value.safeParse(entry);
        if (!parsed.success) {
          // Each fault at its id, as a record's would be ("mapping.n1.message.author.role").
          for (const issue of parsed.error.issues)
            ctx.addIssue({ ...issue, path: [key, ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
          return z.NEVER;
        }
        out.push([key, parsed.data]);
      }
      return out;
    });

/** Another app's nodes by their ids: a Map, so that no id (`constructor`, `toString`, `__proto__`) meets an object's own properties. */
export type TreeNodes = Map<string, TreeNode>;

export type TreeNode = {
  parent: string | null;
  children: string[];
  /** `model`: the model the app says wrote an answer. */
  message?: { role: 'user' | 'assistant'; content: string; createdAt: number; model?: string };
  tool?: { name: string; result: string; createdAt: number };
};

/** The model an app names on a message, when it is a plausible name (a string, not too long). */
export function modelNamed(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  return name.length > 0 && name.length <= 200 ? name : undefined;
}

/** A stable UUID (the version 5 layout) for another app's ids, so a second import finds the first's rows. */
export function derivedId(...parts: string[]): string {
  const h = createHash('sha1')
    .update(`hearth-import\0${parts.join('\0')}`)
    .digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function treeRecords(c: {
  /** Which app: part of every derived id, so two apps' ids never meet. */
  source: string;
  /** The conversation's own id in that app. */
  key: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  pinned?: boolean;
  nodes: TreeNodes;
  /** The last node of the branch the app showed. */
  current: string | null;
}): LibraryRecord[] {
  const { nodes } = c;
  const id = (...parts: string[]) => derivedId(c.source, c.key, ...parts);
  /** The nearest node above (or at) `from` that passes `ok`. */
  const above = (from: string | null | undefined, ok: (n: TreeNode) => boolean): string | null => {
    const seen = new Set<string>();
    for (let cur = from; cur && !seen.has(cur) && nodes.has(cur); cur = nodes.get(cur)!.parent) {
      seen.add(cur);
      if (ok(nodes.get(cur)!)) return cur;
    }
    return null;
  };
  const kept = (n: TreeNode) => Boolean(n.message);
  const leaf = above(c.current, kept);
  const threadId = id();
  const records: LibraryRecord[] = [
    {
      type: 'thread',
      id: threadId,
      // A title carried in a file is kept as the user's: nothing rewrites it.
      title: c.title.slice(0, 1000),
      titleSource: c.title ? 'user' : 'auto',
      systemPrompt: '',
      pinned: c.pinned ?? false,
      currentLeafId: leaf ? id(leaf) : null,
      createdAt: Math.max(0, c.createdAt),
      updatedAt: Math.max(0, c.updatedAt, c.createdAt),
    },
  ];
  // Parents before children: from the roots down, each node's children in the app's order.
  const order: string[] = [];
  const visited = new Set<string>();
  const stack = [...nodes.keys()].filter((k) => !nodes.get(k)!.parent || !nodes.has(nodes.get(k)!.parent!)).reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (visited.has(node)) continue;
    visited.add(node);
    order.push(node);
    const children = nodes.get(node)!.children;
    for (let i = children.length - 1; i >= 0; i--) if (nodes.has(children[i])) stack.push(children[i]);
  }
  // A message no root leads to sits on a circle of parents: refused by name, never dropped unsaid.
  const stranded = [...nodes.keys()].find((k) => !visited.has(k) && nodes.get(k)!.message);
  if (stranded !== undefined) {
    throw new HearthError(
      'bad_request',
      `The conversation ${JSON.stringify(c.title.slice(0, 100) || c.key.slice(0, 100))} cannot be imported, and nothing was changed: its messages' parents go round in a circle (through ${JSON.stringify(stranded.slice(0, 100))}), so none of them comes first.`,
    );
  }
  for (const node of order) {
    const m = nodes.get(node)!.message;
    if (!m) continue;
    const parent = above(nodes.get(node)!.parent, kept);
    const question = m.role === 'assistant' ? above(nodes.get(node)!.parent, (n) => n.message?.role === 'user') : null;
    const turnId = question ? id(node, 'turn') : null;
    records.push({
      type: 'message',
      id: id(node),
      threadId,
      turnId,
      parentId: parent ? id(parent) : null,
      role: m.role,
      content: m.content,
      status: 'complete',
      errorCode: null,
      contextBlock: null,
      ...(m.role === 'assistant' && m.model ? { model: m.model } : {}),
      createdAt: Math.max(0, m.createdAt),
    });
    if (!turnId || !question) continue;
    const turn: RecordOf<'turn'> = {
      type: 'turn',
      id: turnId,
      threadId,
      userMessageId: id(question),
      assistantMessageId: id(node),
      status: 'done',
      stats: null,
      events: null,
      createdAt: Math.max(0, nodes.get(question)!.message!.createdAt),
      finishedAt: Math.max(0, m.createdAt),
    };
    records.push(turn);
    // The tool output between the question and this answer, as this turn's calls, in order.
    const between: string[] = [];
    const seen = new Set<string>();
    for (let cur = nodes.get(node)!.parent; cur && cur !== question && !seen.has(cur) && nodes.has(cur); cur = nodes.get(cur)!.parent) {
      seen.add(cur);
      between.unshift(cur);
    }
    for (const t of between) {
      const tool = nodes.get(t)!.tool;
      if (!tool) continue;
      records.push({
        type: 'tool_call',
        id: `${turnId}:${t}`.slice(0, 400),
        turnId,
        threadId,
        name: tool.name.slice(0, 200),
        arguments: '{}',
        ok: true,
        result: tool.result,
        repeat: false,
        ms: 0,
        createdAt: Math.max(0, tool.createdAt),
      });
    }
  }
  return records;
}
