import { identityPrompt, type IdentityOptions } from '@/lib/engine/prompts';
import type { ChatMessage } from '@/lib/llm/types';
import { Slot, type ContextLayer } from './layers';

/** Hearth's own layers: the identity block first, the conversation at the history slot. */

export function identityLayer(options: IdentityOptions): ContextLayer<'identity', null> {
  const text = identityPrompt(options);
  return { id: 'identity', slot: Slot.SYSTEM, recall: () => ({ system: text }) };
}

export type HistoryMessage = { role: 'user' | 'assistant'; content: string };

/** How much of the conversation goes into the window, newest kept first. */
export type HistoryBudget = { maxMessages: number; maxChars: number };

export function selectHistory(messages: HistoryMessage[], budget: HistoryBudget): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  let chars = 0;
  for (let i = messages.length - 1; i >= 0 && out.length < budget.maxMessages; i--) {
    const m = messages[i];
    // The newest message (the question) always goes in, however long.
    if (out.length > 0 && chars + m.content.length > budget.maxChars) break;
    chars += m.content.length;
    out.unshift(m);
  }
  // A window should open with the user's side, not half an exchange.
  while (out.length > 1 && out[0].role === 'assistant') out.shift();
  return out;
}

export function historyLayer(messages: HistoryMessage[], budget: HistoryBudget): ContextLayer<'history', null> {
  const window: ChatMessage[] = selectHistory(messages, budget).map((m) => ({ role: m.role, content: m.content }));
  return { id: 'history', slot: Slot.HISTORY, recall: () => ({ messages: window }) };
}
