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

async function nameFree(store: Store, name: string, id?: string) {
  const taken = await store.promptNamed({ name });
  if (taken && taken.id !== id) throw new HearthError('bad_request', `name: there is a prompt /${name} already; choose another name.`);
}

export async function addPrompt(store: Store, body: { name: string; text: string }, now = Date.now()): Promise<PromptView> {
  await nameFree(store, body.name);
  return promptView(await store.insertPrompt({ id: randomUUID(), ...body, now }));
}

export async function editPrompt(store: Store, id: string, patch: { name?: string; text?: string }, now = Date.now()): Promise<PromptView> {
  if (!(await store.getPrompt({ id }))) throw new HearthError('not_found', 'There is no such prompt.');
  if (patch.name) await nameFree(store, patch.name, id);
  return promptView((await store.updatePrompt({ id, ...patch, now }))!);
}

export async function removePrompt(store: Store, id: string): Promise<void> {
  if (!(await store.deletePrompt({ id }))) throw new HearthError('not_found', 'There is no such prompt.');
}
