import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Store } from '@/db/store';
import type { Memory } from '@/db/schema';
import { HearthError } from '@/lib/errors';
import { factRefusal, normaliseFact } from '@/lib/memory/facts';

/** Memory facts through the API: every write is checked, and a refusal says why. */

export const memoryView = (m: Memory) => ({ id: m.id, text: m.text, createdAt: m.createdAt, updatedAt: m.updatedAt });

export function addMemory(store: Store, text: string) {
  const why = factRefusal(text, store.listMemories().map((m) => m.text));
  if (why) throw new HearthError('refused', `Not kept: ${why}.`);
  return memoryView(store.insertMemory({ id: randomUUID(), text: normaliseFact(text), now: Date.now() }));
}

export function editMemory(store: Store, id: string, text: string) {
  if (!store.getMemory({ id })) throw new HearthError('not_found', 'There is no memory with that id.');
  const why = factRefusal(text, store.listMemories().filter((m) => m.id !== id).map((m) => m.text));
  if (why) throw new HearthError('refused', `Not kept: ${why}.`);
  return memoryView(store.updateMemory({ id, text: normaliseFact(text), now: Date.now() })!);
}
