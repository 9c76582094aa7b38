import { samplingFields, type Sampling } from '@/lib/contract/sampling';
import { ContextRuntime, Slot } from '@/lib/turns/context/layers';
import {
  historyLayer,
  identityLayer,
  imageTokens,
  memoryLayer,
  type AttachedFile,
  type HistoryMessage,
} from '@/lib/turns/context/standard';
import type { DecisionRecord } from '@/lib/contract/decisions';
import { decisionsHistoryLayer, type DecisionStorage } from '@/lib/turns/decide/history';
import { HearthError } from '@/lib/shared/errors';
import type { Lease } from '@/lib/models/pool';
import type { ThinkingMode } from '@/lib/models/thinking';
import { factsFor, factsUsed, renderStandingFacts } from '@/lib/data/memory/facts';
import type { TurnEvent } from '@/lib/contract/events';
import { MessageTree } from '@/lib/turns/conversation/tree';
import type { ToolSet } from '@/lib/tools/toolset';
import type { AttachedTableRef, TableMeta } from '@/lib/data/tables/tables';
import type { MessageStatus } from '@/lib/contract/statuses';
import type { Awaitable, Port } from '@/lib/shared/awaitable';

/**
 * The model's context for one turn, put together from what is stored: who the assistant and
 * the user are, the branch the question is on with each message's files and its own context
 * block, the facts that bear on the question, and the thread's earlier checks.
 */

/** What assembling a turn's context reads from the database (db/store.ts provides it). */
export type ContextStore = Port<{
  getThread(args: { id: string }):
    | {
        id: string;
        title: string;
        systemPrompt: string;
        currentLeafId: string | null;
        thinking: ThinkingMode | null;
        /** Tools switched off in this thread only. */
        disabledTools?: string[] | null;
        /** The model the thread asks for; null: the default. */
        model?: string | null;
        /** Sampling for its replies; null: each server's defaults. */
        sampling?: Sampling | null;
      }
    | undefined;
  /** A thread's messages, every branch, oldest first. */
  listMessages(args: { threadId: string }): {
    id: string;
    parentId: string | null;
    role: 'user' | 'assistant';
    content: string;
    status: MessageStatus;
    turnId: string | null;
    contextBlock: string | null;
  }[];
  decisionRowsOfThread(args: { threadId: string; layerId: string }): (DecisionRecord & { id: number; turnId: string | null })[];
  loadDecisions(args: { layerId: string; scope: string; scopeKey: string }): DecisionRecord[];
  appendDecisions(args: {
    layerId: string;
    scope: 'execution' | 'thread' | 'resource';
    scopeKey: string;
    records: DecisionRecord[];
    maxRecords: number;
    turnId: string | null;
    threadId: string | null;
  }): void;
  listMemories(): { id: string; text: string; createdAt: number; updatedAt: number }[];
  /** The knowledge collections the thread's turns search (its own and those for every thread). */
  collectionsOfThread?(args: { threadId: string }): { id: string; name: string }[];
  /** The thinking before each of these turns' answers (their last round's), by turn. */
  answerThinkingOf(args: { turnIds: string[] }): Map<string, string>;
  attachmentsOfThread(args: { threadId: string }): {
    id: string;
    messageId: string | null;
    name: string;
    mime: string;
    size: number;
    text: string;
    chars: number;
    lines: number;
    kind?: string;
    sha256?: string;
    width?: number | null;
    height?: number | null;
  }[];
}>;

export type TurnIdentity = {
  assistantName: string;
  timezone: string;
  location?: string;
  userName?: string;
  /** Instructions for every conversation, before the thread's own. */
  defaultInstructions?: string;
  /** False: the person switched memory off, so no remembered fact is given to the model. */
  memory?: boolean;
};

export type ContextRequest = {
  store: ContextStore;
  /** The thread's knowledge collections, when more than its store knows (those shared with everyone); else the store's. */
  collections?: (threadId: string) => Awaitable<{ id: string; name: string }[]>;
  threadId: string;
  turnId: string;
  /** The question this turn answers. */
  userMessageId: string;
  /** Where the turn runs: its model's name and whether it sees images. */
  lease: Pick<Lease, 'modelId' | 'vision'>;
  /** Every tool a turn may have; the thread's own choice leaves some out. */
  tools: ToolSet;
  identity: TurnIdentity;
  now: number;
  /** Upper bound on history sent to the model, in characters. */
  historyChars: number;
  /** A stored image as a data URL, for a server that sees images. */
  imageData?: (file: { sha256: string; mime: string }) => string | undefined;
  /** An attached file's table (read into one the first time): what it holds; null when it is none. */
  tableOf?: (file: { sha256: string; name: string; mime: string; kind: string }) => Promise<TableMeta | null>;
  /** Thinking as the Settings page asks it: the default mode (a thread may choose its own), and whether earlier answers go back with theirs. */
  thinking?: { mode: ThinkingMode; inHistory: boolean };
};

export type TurnContext = {
  context: ContextRuntime;
  question: string;
  /** The last three answers on the branch: the verdict reads them to see what was said before. */
  earlierAnswers: string[];
  /** Thinking asked of this turn's conversation calls: the thread's choice, else the Settings page's. */
  thinking: ThinkingMode;
  /** The thread's sampling as llama-server's fields, for its reply calls (empty: the server's defaults). */
  sampling: Record<string, number>;
  /** The tools of this thread's turn (those it switched off left out). */
  tools: ToolSet;
  /** The memory facts the model was given this turn (standing and recalled). */
  facts: { id: string; text: string }[];
  /** What is said under an accepted answer: the facts it drew on. */
  underAnswer: (answer: string) => TurnEvent[];
  /** The tables attached on the question's branch, newest first (program-decided queries, lib/turns/engine/query-first.ts). */
  tables: AttachedTableRef[];
};

/** The files of each message of the thread, images as themselves where the server sees them, tables with what they hold. */
async function filesByMessage({ store, threadId, lease, imageData, tableOf }: ContextRequest): Promise<Map<string, AttachedFile[]>> {
  const files = new Map<string, AttachedFile[]>();
  for (const a of await store.attachmentsOfThread({ threadId })) {
    // A kept recording: the message is its transcript already.
    if (!a.messageId || a.kind === 'audio') continue;
    const table =
      tableOf && a.sha256 && a.kind !== 'image'
        ? await tableOf({ sha256: a.sha256, name: a.name, mime: a.mime, kind: a.kind ?? 'text' })
        : null;
    if (table) {
      files.set(a.messageId, [...(files.get(a.messageId) ?? []), { ...a, table }]);
      continue;
    }
    // An image goes to the model as itself when its server sees images, else as a line saying it cannot.
    const file: AttachedFile =
      a.kind === 'image' && a.width && a.height
        ? {
            ...a,
            image: {
              width: a.width,
              height: a.height,
              tokens: imageTokens(a.width, a.height),
              dataUrl: lease.vision && a.sha256 ? imageData?.({ sha256: a.sha256, mime: a.mime }) : undefined,
            },
          }
        : a;
    files.set(a.messageId, [...(files.get(a.messageId) ?? []), file]);
  }
  return files;
}

export async function assembleContext(request: ContextRequest): Promise<TurnContext> {
  const { store, threadId, turnId, userMessageId } = request;
  const thread = await store.getThread({ id: threadId });
  if (!thread) throw new HearthError('not_found', 'The thread was deleted.');
  // The thread's own choice of tools (some switched off in it).
  // search_documents only where the thread has collections to search.
  const collections = (await request.collections?.(threadId)) ?? (await store.collectionsOfThread?.({ threadId })) ?? [];
  const off = [...(thread.disabledTools ?? []), ...(collections.length ? [] : ['search_documents'])];
  const tools = request.tools.without?.(off) ?? request.tools;
  // The model sees the branch the question is on: the path from the thread's first message to it.
  const path = new MessageTree(await store.listMessages({ threadId })).pathTo(userMessageId);
  // The path ends at the question this turn stored (a deleted thread fails the check above).
  const question = path.at(-1)?.content ?? '';
  // A message without a turn adds null, which matches nothing: checks without a turn are kept anyway.
  const onPath = new Set<string | null>(path.map((m) => m.turnId));
  onPath.add(turnId);
  const files = await filesByMessage(request);
  // The tables attached on this branch, the newest first: the ones a question about "the statement" means.
  const tables = path
    .flatMap((m) => files.get(m.id) ?? [])
    .flatMap((f) => (f.table && f.id ? [{ attachmentId: f.id, name: f.name, meta: f.table }] : []))
    .reverse();
  const thinkingOf = request.thinking?.inHistory
    ? await store.answerThinkingOf({ turnIds: path.flatMap((m) => (m.role === 'assistant' && m.turnId ? [m.turnId] : [])) })
    : new Map<string, string>();
  // Each earlier message as it was sent in its own turn; the question gets this turn's block.
  const history: HistoryMessage[] = path
    .filter((m) => m.role === 'user' || (m.status === 'complete' && m.content.trim() !== ''))
    .map((m) => ({
      role: m.role,
      content: m.content,
      contextBlock: m.id === userMessageId ? null : m.contextBlock,
      files: files.get(m.id),
      ...(m.role === 'assistant' && m.turnId && thinkingOf.has(m.turnId) ? { reasoning: thinkingOf.get(m.turnId) } : {}),
    }));
  const earlierAnswers = history
    .filter((m) => m.role === 'assistant')
    .slice(-3)
    .map((m) => m.content);
  const storage: DecisionStorage = {
    // The thread's checks so far, from this branch only: another branch's turns are not this conversation.
    load: async ({ layerId, scope, scopeKey }) =>
      scope === 'thread' && scopeKey === threadId
        ? (await store.decisionRowsOfThread({ threadId, layerId }))
            .filter((r) => r.turnId === null || onPath.has(r.turnId))
            .map(({ id: _id, turnId: _turnId, ...record }) => record)
        : store.loadDecisions({ layerId, scope, scopeKey }),
    append: ({ layerId, scope, scopeKey, record, maxRecords }) =>
      store.appendDecisions({ layerId, scope, scopeKey, records: [record], maxRecords, turnId, threadId }),
  };
  const facts = request.identity.memory === false ? { standing: [], recalled: [] } : factsFor(await store.listMemories(), question);
  const context = await ContextRuntime.create(
    [
      identityLayer({
        standingFacts: renderStandingFacts(facts.standing),
        ...request.identity,
        modelId: request.lease.modelId ?? 'local model',
        now: request.now,
        webSearch: await tools.researchAvailable(),
        toolNames: tools.registry.tools.map((t) => t.name),
        collections: tools.registry.has('search_documents') ? collections.map((c) => c.name) : [],
        systemPrompt: thread.systemPrompt,
      }),
      historyLayer(history, { maxMessages: 40, maxChars: request.historyChars }),
      memoryLayer(facts.recalled),
      decisionsHistoryLayer({ scope: 'thread', storage, slot: Slot.DECISIONS }),
    ] as const,
    { executionId: turnId, threadId, resourceId: 'local-user' },
  );
  const given = [...facts.standing, ...facts.recalled];
  return {
    context,
    question,
    earlierAnswers,
    thinking: thread.thinking ?? request.thinking?.mode ?? 'default',
    sampling: samplingFields(thread.sampling),
    tools,
    tables,
    // what the model was told of the user this turn: the answer says which of it it drew on
    facts: given,
    underAnswer: (answer) => {
      const used = factsUsed(given, answer);
      return used.length ? [{ type: 'memory', facts: used.map((f) => f.text) }] : [];
    },
  };
}
