import { randomUUID } from 'node:crypto';
import type { Awaitable } from '@/lib/shared/awaitable';
import { HearthError } from '@/lib/shared/errors';
import type { MessageStatus } from '@/lib/contract/statuses';
import { MessageTree, type TreeMessage } from './tree';

/**
 * Every change to a conversation's tree of messages, in one place, each in one transaction.
 * Beginning a turn stores what it needs before it runs, so that nothing the user typed is lost
 * whatever happens next: a question follows the branch the thread shows (or replaces an earlier
 * one on a new branch beside it); a regeneration answers an earlier question again beside the
 * old answer. Either way an empty `streaming` answer and a `queued` turn row are stored and the
 * thread shows that answer. Showing another branch moves the thread's leaf; deleting a message
 * takes everything under it and moves the leaf off the branch that went.
 */

/** What the tree's writes need of the store (db/store.ts provides it). */
export type BeginStore = {
  listMessages(args: { threadId: string }): Awaitable<(TreeMessage & { role: 'user' | 'assistant' })[]>;
  transaction<T>(work: () => Promise<T>): Promise<T>;
  insertMessage(row: {
    id: string;
    threadId: string;
    turnId: string | null;
    parentId: string | null;
    role: 'user' | 'assistant';
    content: string;
    status: MessageStatus;
    now: number;
  }): unknown;
  linkAttachments(args: { ids: string[]; messageId: string }): Awaitable<number>;
  copyAttachments(args: { fromMessageId: string; toMessageId: string; newId: () => string; now: number }): Awaitable<number>;
  insertTurn(row: { id: string; threadId: string; userMessageId: string; assistantMessageId: string; now: number }): Awaitable<void>;
  /** The model that writes (and wrote) an answer. */
  setMessageModel(args: { id: string; model: string | null }): Awaitable<void>;
  setCurrentLeaf(args: { threadId: string; leafId: string | null }): Awaitable<void>;
  titleIfUntitled(args: { id: string; title: string }): Awaitable<void>;
  touchThread(args: { id: string; now: number }): Awaitable<void>;
};

export type BegunTurn = { turnId: string; threadId: string; userMessageId: string; assistantMessageId: string };

/** A thread title is the first words of its first message. */
const TITLE_CHARS = 60;

export function titleFrom(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  if (line.length <= TITLE_CHARS) return line;
  const cut = line.slice(0, TITLE_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 30)).trim()}…`;
}

/**
 * The thread, when it exists and no turn of it runs; throws otherwise. Asked inside the
 * transaction, so two questions at once cannot both pass.
 */
export type RequireIdle = (threadId: string) => Promise<{ currentLeafId: string | null }>;

/** Stores a question and its empty answer. */
export async function storeQuestion(
  store: BeginStore,
  requireIdle: RequireIdle,
  now: number,
  {
    threadId,
    content,
    attachmentIds = [],
    editOf,
  }: {
    threadId: string;
    content: string;
    attachmentIds?: string[];
    editOf?: string;
  },
): Promise<BegunTurn> {
  const turnId = randomUUID();
  const userMessageId = randomUUID();
  const assistantMessageId = randomUUID();
  await store.transaction(async () => {
    const thread = await requireIdle(threadId);
    const tree = new MessageTree(await store.listMessages({ threadId }));
    let parentId: string | null;
    if (editOf !== undefined) {
      const edited = tree.get(editOf);
      if (!edited) throw new HearthError('not_found', 'editOf: there is no such message in this thread.');
      if (edited.role !== 'user')
        throw new HearthError('bad_request', 'editOf: only a question can be edited; an answer can be regenerated.');
      parentId = edited.parentId;
    } else {
      parentId = tree.leaf(thread.currentLeafId)?.id ?? null;
    }
    await store.insertMessage({ id: userMessageId, threadId, turnId, parentId, role: 'user', content, status: 'complete', now });
    const ids = [...new Set(attachmentIds)];
    if ((await store.linkAttachments({ ids, messageId: userMessageId })) !== ids.length) {
      // The transaction rolls back: the message is not half-stored.
      throw new HearthError('bad_request', 'attachmentIds: an attachment is unknown or was already sent with another message.');
    }
    if (editOf !== undefined) await store.copyAttachments({ fromMessageId: editOf, toMessageId: userMessageId, newId: randomUUID, now });
    await store.insertMessage({
      id: assistantMessageId,
      threadId,
      turnId,
      parentId: userMessageId,
      role: 'assistant',
      content: '',
      status: 'streaming',
      now: now + 1,
    });
    await store.insertTurn({ id: turnId, threadId, userMessageId, assistantMessageId, now });
    await store.setCurrentLeaf({ threadId, leafId: assistantMessageId });
    await store.titleIfUntitled({ id: threadId, title: titleFrom(content) });
    await store.touchThread({ id: threadId, now });
  });
  return { turnId, threadId, userMessageId, assistantMessageId };
}

/**
 * Stores an empty new answer to the question an answer replied to, beside the old one (which
 * stays reachable). `messageId` is that answer (or the question itself, when its answer is gone).
 */
export async function storeRegeneration(
  store: BeginStore,
  requireIdle: RequireIdle,
  now: number,
  { threadId, messageId, model }: { threadId: string; messageId: string; model?: string },
): Promise<BegunTurn> {
  const turnId = randomUUID();
  const assistantMessageId = randomUUID();
  const userMessageId = await store.transaction(async () => {
    await requireIdle(threadId);
    const tree = new MessageTree(await store.listMessages({ threadId }));
    const message = tree.get(messageId);
    if (!message) throw new HearthError('not_found', 'There is no such message in this thread.');
    const question = message.role === 'user' ? message : message.parentId ? tree.get(message.parentId) : undefined;
    if (!question || question.role !== 'user') throw new HearthError('bad_request', 'That answer has no question to answer again.');
    await store.insertMessage({
      id: assistantMessageId,
      threadId,
      turnId,
      parentId: question.id,
      role: 'assistant',
      content: '',
      status: 'streaming',
      now,
    });
    await store.insertTurn({ id: turnId, threadId, userMessageId: question.id, assistantMessageId, now });
    // Another model for this one answer: kept on it before the turn runs, so a restart resumes with it.
    if (model) await store.setMessageModel({ id: assistantMessageId, model });
    await store.setCurrentLeaf({ threadId, leafId: assistantMessageId });
    await store.touchThread({ id: threadId, now });
    return question.id;
  });
  return { turnId, threadId, userMessageId, assistantMessageId };
}

/** What showing a branch and deleting need besides (db/store.ts provides it). */
export type TreeStore = Pick<BeginStore, 'listMessages' | 'transaction' | 'setCurrentLeaf' | 'touchThread'> & {
  /** Deletes the rows; answers the files' hashes they referred to. */
  deleteMessages(args: { threadId: string; ids: string[] }): Awaitable<string[]>;
};

/** Shows another branch: the newest message under `messageId` becomes the thread's current leaf. */
export async function showBranch(store: TreeStore, threadId: string, messageId: string): Promise<void> {
  const tree = new MessageTree(await store.listMessages({ threadId }));
  const leaf = tree.newestUnder(messageId);
  if (!leaf) throw new HearthError('not_found', 'branch: there is no such message in this thread.');
  await store.setCurrentLeaf({ threadId, leafId: leaf.id });
}

/**
 * Deletes a message and everything that follows it, on every branch under it. When the branch
 * shown goes, the thread shows the newest remaining version beside it, else what came before.
 * Answers the hashes of the files the deleted rows referred to.
 */
export async function deleteFrom(
  store: TreeStore,
  thread: { id: string; currentLeafId: string | null },
  messageId: string,
  now: number,
): Promise<string[]> {
  const threadId = thread.id;
  const tree = new MessageTree(await store.listMessages({ threadId }));
  const message = tree.get(messageId);
  if (!message) throw new HearthError('not_found', 'There is no such message in this thread.');
  const gone = new Set(tree.subtree(messageId).map((m) => m.id));
  const shown = tree.leaf(thread.currentLeafId);
  return store.transaction(async () => {
    const hashes = await store.deleteMessages({ threadId, ids: [...gone] });
    if (shown && gone.has(shown.id)) {
      const sibling = tree
        .siblings(messageId)
        .filter((m) => !gone.has(m.id))
        .at(-1);
      const leaf = sibling
        ? tree.newestUnder(sibling.id)!.id
        : message.parentId !== null && tree.get(message.parentId)
          ? message.parentId
          : null;
      await store.setCurrentLeaf({ threadId, leafId: leaf });
    }
    await store.touchThread({ id: threadId, now });
    return hashes;
  });
}
