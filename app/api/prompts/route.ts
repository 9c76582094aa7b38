import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { promptBody } from '@/lib/contract/requests';
import { getRuntime } from '@/lib/services/runtime';
import { addPrompt, promptView } from '@/lib/services/prompts';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET', 'POST');

/** The saved prompts, by name. */
export function GET(request: Request) {
  return handle(request, () => json({ prompts: getRuntime().store.listPrompts().map(promptView) }));
}

/** Saves a prompt; a name already taken is a 400 that says so. */
export function POST(request: Request) {
  return handle(request, async () => json(addPrompt(getRuntime().store, await readJson(request, promptBody)), 201));
}
