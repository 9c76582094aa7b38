import type { TurnStats } from '@/lib/contract/events';
import 'server-only';
import type { Store } from '@/db/store';
import { decodeCursor } from '@/db/queries/threads';
import type { Thread } from '@/db/rows';
import { HearthError } from '@/lib/shared/errors';
import { DECISIONS_LAYER_ID } from '@/lib/turns/decide/history';
import type { TurnSupervisor } from '@/lib/turns/supervisor/supervisor';
import type { Runtime } from './runtime';
import { applyEvent, newTurnState } from '@/lib/contract/turn-state';
import { endedWordless, MessageTree } from '@/lib/turns/conversation/tree';
import { deleteFrom, showBranch as showBranchIn } from '@/lib/turns/conversation/writes';
import type { TurnEvent } from '@/lib/contract/events';
import type { MessageView, Rating, ThreadExport, ThreadSummary } from '@/lib/contract/responses';
import type { BulkThreadsBody } from '@/lib/contract/requests';
import { normalSampling } from '@/lib/contract/sampling';

/** Read models of the HTTP API: a thread with its messages, tool calls and decisions. */

export function threadSummary(t: Thread): ThreadSummary {
  return {
    id: t.id,
    title: t.title,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    pinned: t.pinned,
    folderId: t.folderId,
    archived: t.archived,
  };
}

/** A page of the thread list, newest first; `cursor` is the one the previous page gave out. */
export async function threadPage(
  store: Store,
  limit: number,
  cursor: string | undefined,
  filter: { folderId?: string | null; archived?: boolean } = {},
): Promise<{ threads: ThreadSummary[]; nextCursor: string | null }> {
  const decoded = cursor ? decodeCursor(cursor) : undefined;
  if (cursor && !decoded) throw new HearthError('bad_request', 'cursor: not a cursor this server gave out');
  if (filter.folderId && !(await store.getFolder({ id: filter.folderId })))
    throw new HearthError('not_found', 'folder: there is no such folder.');
  const page = await store.listThreads({ limit, cursor: decoded ?? undefined, ...filter });
  return { threads: page.threads.map(threadSummary), nextCursor: page.nextCursor };
}

/** Deletes a thread: its running turn stops, its rows go, and the files nothing else refers to leave the disk. */
export async function deleteThread(rt: Runtime, id: string): Promise<void> {
  const files = await rt.store.fileHashesOfThread({ threadId: id });
  rt.turns.forgetThread(id);
  if (!(await rt.store.deleteThread({ id }))) throw new HearthError('not_found', 'There is no thread with that id.');
  await rt.files.removeUnreferenced(files, (sha256) => rt.store.isFileReferenced({ sha256 }));
}

/** Puts threads in a folder (null: none) or the archive, in one transaction; a folder that does not exist is a 400 that says so. */
export async function fileThreads(store: Store, ids: string[], place: { folderId?: string | null; archived?: boolean }): Promise<void> {
  if (place.folderId && !(await store.getFolder({ id: place.folderId }))) {
    throw new HearthError('bad_request', `folderId: there is no folder ${place.folderId}; make it first (POST /api/folders).`);
  }
  await store.transaction(async () => {
    for (const id of ids) await store.fileThread({ id, ...place });
  });
}

/**
 * One action on many threads (the sidebar's selection): every id is checked first, so a missing
 * thread or folder changes nothing; a move or an archive is one transaction. Says how many.
 */
export async function bulkThreads(rt: Runtime, { ids, action }: BulkThreadsBody): Promise<number> {
  const missing: string[] = [];
  for (const id of ids) if (!(await rt.store.getThread({ id }))) missing.push(id);
  if (missing.length)
    throw new HearthError(
      'not_found',
      `There is no thread ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ` (and ${missing.length - 3} more)` : ''}.`,
    );
  if (action.kind === 'delete') {
    for (const id of ids) await deleteThread(rt, id);
    return ids.length;
  }
  await fileThreads(rt.store, ids, action.kind === 'move' ? { folderId: action.folderId } : { archived: action.archived });
  return ids.length;
}

/** The knowledge collections a thread searches; one that does not exist is a 400 that names it. */
export async function useCollections(store: Store, threadId: string, collectionIds: string[]): Promise<void> {
  const missing: string[] = [];
  for (const id of collectionIds) if (!(await store.getCollection({ id }))) missing.push(id);
  if (missing.length)
    throw new HearthError(
      'bad_request',
      `collectionIds: there is no collection ${missing.join(', ')}; make it first (POST /api/collections).`,
    );
  await store.setThreadCollections({ threadId, collectionIds });
}

export async function requireThread(store: Store, id: string): Promise<Thread> {
  const thread = await store.getThread({ id });
  if (!thread) throw new HearthError('not_found', 'There is no thread with that id.');
  return thread;
}

/** A turn of a thread, or not_found (a turn id from another thread is unknown here). */
export async function requireTurn(store: Store, threadId: string, turnId: string) {
  const turn = await store.getTurn({ id: turnId });
  if (!turn || turn.threadId !== threadId) throw new HearthError('not_found', 'There is no such turn in this thread.');
  return turn;
}

/** Shows another branch: the newest message under `messageId` becomes the thread's current leaf. */
export async function showBranch(store: Store, turns: TurnSupervisor, threadId: string, messageId: string): Promise<void> {
  if (await turns.busy(threadId))
    throw new HearthError('turn_running', 'A reply is still being written in this thread. Wait for it or stop it first.');
  await showBranchIn(store, threadId, messageId);
}

/**
 * Deletes a message and everything that follows it, on every branch under it
 * (lib/turns/conversation/writes.ts), then the files nothing refers to any more.
 */
export async function deleteMessageAndAfter(rt: Runtime, threadId: string, messageId: string): Promise<void> {
  const { store, turns } = rt;
  if (await turns.busy(threadId))
    throw new HearthError('turn_running', 'A reply is still being written in this thread. Wait for it or stop it first.');
  const files = await deleteFrom(store, await requireThread(store, threadId), messageId, Date.now());
  // Once the rows are gone: a file still sent elsewhere stays.
  await rt.files.removeUnreferenced(files, (sha256) => store.isFileReferenced({ sha256 }));
}

/**
 * A thread as the page shows it: the messages of the branch shown, each with its versions
 * (`branch`: the ids of it and its siblings, when there is more than one). `allBranches` adds
 * the messages of every other branch (`otherMessages`), for the JSON export.
 */
/** Stored thumbs (1, -1) as the page says them. */
export const ratingOf = (stored: number | null): Rating | null => (stored === 1 ? 'up' : stored === -1 ? 'down' : null);

/** Puts the user's thumbs on an answer of the thread, or takes them back (null). */
export async function rateAnswer(store: Store, threadId: string, messageId: string, rating: Rating | null): Promise<void> {
  await requireThread(store, threadId);
  const stored = rating === 'up' ? 1 : rating === 'down' ? -1 : null;
  if (!(await store.setRating({ threadId, id: messageId, rating: stored })))
    throw new HearthError('not_found', 'There is no such answer in this thread.');
}

export async function threadView(
  store: Store,
  turns: TurnSupervisor,
  id: string,
  { allBranches = false }: { allBranches?: boolean } = {},
): Promise<ThreadExport> {
  const thread = await requireThread(store, id);
  const tree = new MessageTree(await store.listMessages({ threadId: id }));
  const shown = tree.shownPath(thread.currentLeafId);
  const calls = await store.listToolCallsForThread({ threadId: id });
  const decisions = await store.decisionsOfThread({ threadId: id, layerId: DECISIONS_LAYER_ID });
  const attachments = await store.attachmentsOfThreadMessages({ threadId: id });
  const stats = await store.turnStatsOfThread({ threadId: id });
  const active = await store.activeTurnOf({ threadId: id });
  // Set-aside drafts and calculations live in the event log; rebuild them with the same
  // reducer the browser uses while a turn streams.
  const notable = await store.eventsOfNotableTurns({ threadId: id });
  const extras = new Map(
    [...notable].map(([turnId, evs]) => {
      // References of a compacted turn (its answer, kept in the message) play no part in set-aside
      // drafts or thinking; a call stands as itself, for where each round's thinking goes.
      const state = evs
        .flatMap((e): (TurnEvent & { seq: number })[] => {
          const data = e.data as Record<string, unknown> | string | null;
          if (typeof data !== 'object' || data === null) return [];
          if ('type' in data) return [{ ...(data as TurnEvent), seq: e.seq }];
          return 'tool_call' in data ? [{ type: 'tool_call', id: String(data.tool_call), name: '', arguments: '', seq: e.seq }] : [];
        })
        .reduce(applyEvent, newTurnState(turnId));
      return [
        turnId,
        {
          setAside: state.setAside,
          calculation: state.calculation ?? null,
          remembered: state.remembered,
          thinking: state.thinking.map(({ done: _done, ...block }) => block),
        },
      ] as const;
    }),
  );
  // Grouped once by turn (and message): a long thread has thousands of each.
  const group = <T, K>(items: readonly T[], key: (item: T) => K) => {
    const map = new Map<K, T[]>();
    for (const item of items) {
      const k = key(item);
      const list = map.get(k);
      if (list) list.push(item);
      else map.set(k, [item]);
    }
    return map;
  };
  const callsByTurn = group(calls, (c) => c.turnId);
  const decisionsByTurn = group(decisions, (d) => d.turnId);
  const attachmentsByMessage = group(attachments, (a) => a.messageId);
  const show = (m: (typeof shown)[number]): MessageView => {
    const versions = tree.versions(m.id, endedWordless);
    return {
      id: m.id,
      parentId: m.parentId,
      branch:
        versions.length > 1
          ? {
              index: versions.findIndex((v) => v.id === m.id),
              ids: versions.map((v) => v.id),
              ...(m.role === 'assistant' ? { models: versions.map((v) => v.model ?? null) } : {}),
            }
          : null,
      role: m.role,
      content: m.content,
      status: m.status,
      errorCode: m.errorCode,
      turnId: m.turnId,
      createdAt: m.createdAt,
      toolCalls:
        m.role === 'assistant' && m.turnId
          ? (callsByTurn.get(m.turnId) ?? []).map((c) => {
              const result = JSON.parse(c.result) as unknown;
              // A failed call keeps its reason where the live event had it.
              const error =
                !c.ok && result && typeof result === 'object' && typeof (result as { error?: unknown }).error === 'string'
                  ? (result as { error: string }).error
                  : undefined;
              return {
                id: c.id,
                name: c.name,
                arguments: c.arguments,
                ok: c.ok,
                result,
                ...(error !== undefined ? { error } : {}),
                repeat: c.repeat,
                ms: c.ms,
              };
            })
          : [],
      attachments: attachmentsByMessage.get(m.id) ?? [],
      decisions: m.role === 'assistant' && m.turnId ? (decisionsByTurn.get(m.turnId) ?? []).map(({ turnId: _t, ...d }) => d) : [],
      setAside: m.role === 'assistant' && m.turnId ? (extras.get(m.turnId)?.setAside ?? []) : [],
      calculation: m.role === 'assistant' && m.turnId ? (extras.get(m.turnId)?.calculation ?? null) : null,
      ...(m.role === 'assistant' && m.turnId && extras.get(m.turnId)?.remembered ? { remembered: extras.get(m.turnId)!.remembered } : {}),
      thinking: m.role === 'assistant' && m.turnId ? (extras.get(m.turnId)?.thinking ?? []) : [],
      stats: m.role === 'assistant' && m.turnId ? ((stats.get(m.turnId) as TurnStats | undefined) ?? null) : null,
      ...(m.role === 'assistant' ? { model: m.model ?? null, rating: ratingOf(m.rating) } : {}),
    };
  };
  return {
    ...threadSummary(thread),
    systemPrompt: thread.systemPrompt,
    thinking: thread.thinking ?? null,
    model: thread.model ?? null,
    sampling: normalSampling(thread.sampling),
    collectionIds: await store.threadCollectionIds({ threadId: thread.id }),
    currentLeafId: shown.at(-1)?.id ?? null,
    messages: shown.map(show),
    ...(allBranches ? { otherMessages: tree.offPath(thread.currentLeafId).map(show) } : {}),
    decisions: decisions.map(({ turnId: _t, ...d }) => d),
    activeTurn: active
      ? { id: active.id, lastEventSeq: await store.lastEventSeq({ turnId: active.id }), live: turns.isLive(active.id) }
      : null,
  };
}
