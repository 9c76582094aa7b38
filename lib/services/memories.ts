import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Store } from '@/db/store';
import type { Memory } from '@/db/rows';
import { HearthError } from '@/lib/shared/errors';
import { factLine, factRefusal, normaliseFact } from '@/lib/data/memory/facts';
import type { MemoryBook } from '@/lib/tools/types';
import { oneAtATimePer } from '@/lib/shared/one-at-a-time';
import type { ChangeFeed } from './change-feed';

/**
 * Memory facts, for the API and for the remember tool alike: every write is checked and a
 * refusal says why; every change is announced, so an open Memory panel shows it.
 */

type Deps = { store: Store; updates: ChangeFeed };

/**
 * Changes to one library's memory, one after another: each checks the kept facts (the same
 * fact is not kept twice) before it writes.
 */
const oneAtATime = oneAtATimePer<Store>();

export const memoryView = (m: Memory) => ({ id: m.id, text: m.text, createdAt: m.createdAt, updatedAt: m.updatedAt });

export function addMemory(deps: Deps, text: string) {
  return oneAtATime(deps.store, () => addNow(deps, text));
}

async function addNow({ store, updates }: Deps, text: string) {
  const why = factRefusal(
    text,
    (await store.listMemories()).map((m) => m.text),
  );
  if (why) throw new HearthError('refused', `Not kept: ${why}.`);
  const fact = memoryView(await store.insertMemory({ id: randomUUID(), text: normaliseFact(text), now: Date.now() }));
  updates.publish({ type: 'memories' });
  return fact;
}

/**
 * A fact the user changes or forgets also leaves the context blocks stored with earlier
 * messages, which later turns would otherwise send again: forgetting means forgetting.
 */
export function editMemory(deps: Deps, id: string, text: string) {
  return oneAtATime(deps.store, () => editNow(deps, id, text));
}

async function editNow({ store, updates }: Deps, id: string, text: string) {
  const old = await store.getMemory({ id });
  if (!old) throw new HearthError('not_found', 'There is no memory with that id.');
  const why = factRefusal(
    text,
    (await store.listMemories()).filter((m) => m.id !== id).map((m) => m.text),
  );
  if (why) throw new HearthError('refused', `Not kept: ${why}.`);
  const fact = await store.transaction(async () => {
    const updated = (await store.updateMemory({ id, text: normaliseFact(text), now: Date.now() }))!;
    if (updated.text !== old.text) await store.scrubContextLine({ line: factLine(old.text) });
    return memoryView(updated);
  });
  updates.publish({ type: 'memories' });
  return fact;
}

export function forgetMemory(deps: Deps, id: string) {
  return oneAtATime(deps.store, () => forgetNow(deps, id));
}

async function forgetNow({ store, updates }: Deps, id: string) {
  const old = await store.getMemory({ id });
  if (!old) throw new HearthError('not_found', 'There is no memory with that id.');
  await store.transaction(async () => {
    await store.deleteMemory({ id });
    await store.scrubContextLine({ line: factLine(old.text) });
  });
  updates.publish({ type: 'memories' });
}

/** The same operations as the remember tool sees them. */
export function memoryBook(deps: Deps): MemoryBook {
  return {
    list: async () => (await deps.store.listMemories()).map((m) => ({ id: m.id, text: m.text })),
    add: (text) => addMemory(deps, text),
    edit: (id, text) => editMemory(deps, id, text),
    forget: (id) => forgetMemory(deps, id),
  };
}
