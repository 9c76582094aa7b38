import type { Awaitable } from '@/lib/shared/awaitable';
import { oneAtATimePer } from '@/lib/shared/one-at-a-time';
import { z } from 'zod';
import { hasErrorCode } from '@/lib/shared/errors';
import { closestFact, MAX_FACT_CHARS, normaliseFact } from '@/lib/data/memory/facts';
import { defineTool, ToolError, type MemoryBook } from './types';

/**
 * Memory from the chat: the model keeps, changes or forgets a fact when the user asks, under
 * the Memory panel's rules (secrets refused, 300 characters, one sentence). A new fact much
 * like one already kept replaces it rather than sitting beside it, so "I'm vegetarian now"
 * after "I eat fish" leaves one fact. The model names an existing fact by its words (recalled
 * facts are shown without ids); the closest kept fact is the one changed.
 */

/** At least this alike (shared distinctive words), a new fact replaces the old one. */
export const NEAR_DUPLICATE = 0.6;
/** At least this alike, a fact named for replacing or forgetting is taken to be that one. */
const NAMED = 0.3;

function book(memory: MemoryBook | undefined): MemoryBook {
  if (!memory) throw new ToolError('memory is not available here');
  return memory;
}

/** A refusal under the panel's rules, worded for the model to pass on. */
async function kept<T>(write: () => Awaitable<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (hasErrorCode(err, 'refused', 'not_found')) throw new ToolError(`${(err as Error).message} Tell the user why.`);
    throw err;
  }
}

const same = (a: string, b: string) => normaliseFact(a).toLowerCase() === normaliseFact(b).toLowerCase();

async function named(memory: MemoryBook, words: string) {
  const facts = await memory.list();
  const exact = facts.find((f) => same(f.text, words));
  const found = exact ?? closestFact(facts, words, NAMED);
  if (!found) {
    const shown = facts.slice(0, 20).map((f) => f.text);
    throw new ToolError(
      facts.length === 0
        ? 'nothing is remembered about the user yet'
        : `no remembered fact matches "${words.slice(0, 80)}"; the kept facts are: ${JSON.stringify(shown)}`,
    );
  }
  return found;
}

const oneAtATime = oneAtATimePer<MemoryBook>();

export const rememberTool = defineTool({
  name: 'remember',
  description:
    'Keep, change or forget a fact about the user across conversations, ONLY when the user asks you to remember ' +
    'or forget something, or corrects something you remembered. Write facts in the third person, one short sentence ' +
    `(at most ${MAX_FACT_CHARS} characters), e.g. "The user is vegetarian." Never store passwords, keys or tokens.`,
  params: z.object({
    action: z.enum(['add', 'replace', 'forget']).describe('add a new fact, replace a kept one, or forget one'),
    fact: z.string().min(1).max(2000).describe('add/replace: the fact to keep; forget: the kept fact to forget, in its words'),
    replaces: z.string().max(2000).optional().describe('replace only: the kept fact being changed, in its words'),
  }),
  cost: 1,
  timeoutMs: 3000,
  run({ action, fact, replaces }, deps) {
    const memory = book(deps.memory);
    // One remember call at a time per memory (a batch's calls run at once): each decides against the facts the last one left.
    return oneAtATime(memory, async () => {
      if (action === 'forget') {
        const old = await named(memory, fact);
        await kept(() => memory.forget(old.id));
        return { forgotten: old.text };
      }
      if (action === 'replace') {
        if (!replaces) throw new ToolError('say which kept fact to replace in "replaces", or use action "add"');
        const old = await named(memory, replaces);
        const updated = await kept(() => memory.edit(old.id, fact));
        return { remembered: updated.text, replaced: old.text };
      }
      const near = closestFact(await memory.list(), fact, NEAR_DUPLICATE);
      if (near) {
        if (same(near.text, fact)) return { remembered: near.text, note: 'this was already remembered' };
        const updated = await kept(() => memory.edit(near.id, fact));
        return { remembered: updated.text, replaced: near.text };
      }
      return { remembered: (await kept(() => memory.add(fact))).text };
    });
  },
});
