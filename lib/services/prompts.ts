import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Store } from '@/db/store';
import type { Prompt } from '@/db/rows';
import type { PromptView } from '@/lib/contract/responses';
import { HearthError } from '@/lib/shared/errors';

/** Saved prompts: a name typed after "/" in the message box, and the text that takes its place. */

export const promptView = (p: Prompt): PromptView => ({
  id: p.id,
  name: p.name,
  text: p.text,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

function nameFree(store: Store, name: string, id?: string) {
  const taken = store.promptNamed({ name });
  if (taken && taken.id !== id) throw new HearthError('bad_request', `name: there is a prompt /${name} already; choose another name.`);
}

export function addPrompt(store: Store, body: { name: string; text: string }, now = Date.now()): PromptView {
  nameFree(store, body.name);
  return promptView(store.insertPrompt({ id: randomUUID(), ...body, now }));
}

export function editPrompt(store: Store, id: string, patch: { name?: string; text?: string }, now = Date.now()): PromptView {
  if (!store.getPrompt({ id })) throw new HearthError('not_found', 'There is no such prompt.');
  if (patch.name) nameFree(store, patch.name, id);
  return promptView(store.updatePrompt({ id, ...patch, now })!);
}

export function removePrompt(store: Store, id: string): void {
  if (!store.deletePrompt({ id })) throw new HearthError('not_found', 'There is no such prompt.');
}
