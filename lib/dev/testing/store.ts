import path from 'node:path';
import { openDatabase } from '@/db/client';
import { createStore, type Store } from '@/db/store';
import { makeTempDir } from './temp-dir';

/** A store over a new database file of its own, migrated, for one test. */
export function freshStore(): Store {
  return createStore(openDatabase(path.join(makeTempDir('hearth-store'), 'h.db')));
}

/** A thread with one exchange: the question, the answer and the turn between them. */
export async function seedExchange(
  store: Store,
  ids: { thread: string; user?: string; assistant?: string; turn?: string },
  opts: { now?: number; question?: string; answer?: string } = {},
) {
  const now = opts.now ?? 1000;
  const user = ids.user ?? `${ids.thread}-u`;
  const assistant = ids.assistant ?? `${ids.thread}-a`;
  const turn = ids.turn ?? `${ids.thread}-t`;
  if (!(await store.getThread({ id: ids.thread }))) await store.createThread({ id: ids.thread, title: '', now });
  await store.insertMessage({
    id: user,
    threadId: ids.thread,
    turnId: turn,
    parentId: null,
    role: 'user',
    content: opts.question ?? 'Question?',
    status: 'complete',
    now,
  });
  await store.insertMessage({
    id: assistant,
    threadId: ids.thread,
    turnId: turn,
    parentId: user,
    role: 'assistant',
    content: opts.answer ?? 'Answer.',
    status: 'complete',
    now: now + 1,
  });
  await store.insertTurn({ id: turn, threadId: ids.thread, userMessageId: user, assistantMessageId: assistant, now });
  return { user, assistant, turn };
}
