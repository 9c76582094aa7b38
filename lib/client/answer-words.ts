import type { LiveToolCall } from '@/lib/contract/turn-state';

/** What an answer's cards say in words, decided here so it can be tested without a browser. */

/** What the remember tool did, in words: the turn shows what was remembered or forgotten. */
export function memoryChange(call: LiveToolCall): string | null {
  if (call.name !== 'remember' || !call.ok || !call.result || typeof call.result !== 'object') return null;
  const r = call.result as { remembered?: unknown; replaced?: unknown; forgotten?: unknown };
  if (typeof r.forgotten === 'string') return `Forgot: ${r.forgotten}`;
  if (typeof r.remembered !== 'string') return null;
  return typeof r.replaced === 'string' ? `Remembered: ${r.remembered} (replacing: ${r.replaced})` : `Remembered: ${r.remembered}`;
}

/** The words of each web search of the turn, in order: the searches set-aside drafts led to. */
export function searchWords(calls: readonly LiveToolCall[]): string[] {
  return calls.flatMap((c) => {
    if (c.name !== 'web_search') return [];
    try {
      const q = (JSON.parse(c.arguments) as { query?: unknown }).query;
      return typeof q === 'string' ? [q] : [];
    } catch {
      return [];
    }
  });
}
