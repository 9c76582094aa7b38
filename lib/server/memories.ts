import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Store } from '@/db/store';
import type { Memory } from '@/db/schema';
import { HearthError } from '@/lib/errors';
import { factLine, factRefusal, normaliseFact } from '@/lib/memory/facts';

/** Memory facts through the API: every write is checked, and a refusal says why. */

export const memoryView = (m: Memory) => ({ id: m.id, text: m.text, createdAt: m.createdAt, updatedAt: m.updatedAt });

export function addMemory(store: Store, text: string) {
  const why = factRefusal(text, store.listMemories().map((m) => m.text));
  if (why) throw new HearthError('refused', `Not kept: ${why}.`);
  return memoryView(store.insertMemory({ id: randomUUID(), text: normaliseFact(text), now: Date.now() }));
}

/**
 * A fact the user changes or forgets also leaves the context blocks stored with earlier
 * messages, which later turns would otherwise send again: forgetting means forgetting.
 */
export function editMemory(store: Store, id: string, text: string) {
  const old = store.getMemory({ id });
  if (!old) throw new HearthError('not_found', 'There is no memory with that id.');
  const why = factRefusal(text, store.listMemories().filter((m) => m.id !== id).map((m) => m.text));
  if (why) throw new HearthError('refused', `Not kept: ${why}.`);
  return store.transaction(() => {
    const updated = store.updateMemory({ id, text: normaliseFact(text), now: Date.now() })!;
    if (updated.text !== old.text) store.scrubContextLine({ line: factLine(old.text) });
    return memoryView(updated);
  });
}

export function forgetMemory(store: Store, id: string) {
  const old = store.getMemory({ id });
  if (!old) throw new HearthError('not_found', 'There is no memory with that id.');
  store.transaction(() => {
    store.deleteMemory({ id });
    store.scrubContextLine({ line: factLine(old.text) });
  });
}
