import type { LiveToolCall, ThinkingBlock } from '@/lib/contract/turn-state';
import { cut, hostOf, str, toolDoing } from '@/lib/shared/words/tools';

/**
 * A turn's work in plain words for the page: the stage line while it runs, and each tool
 * call's result preview (what a call did, in words, is lib/shared/words/tools.ts, which the exports
 * share). Pure, so the words are tested without a browser.
 */

const STAGE_TEXT: Record<string, string> = {
  queued: 'Waiting for the model',
  loading: 'Loading the model',
  // The model has the question and has not written a word yet (a thinking model's reasoning
  // shows as "Thinking…" with its count, from its first token).
  thinking: 'Reading the conversation',
  searching: 'Using tools',
  checking: 'Checking the answer',
  writing: 'Writing',
  resumed: 'Resuming after a restart',
};

/**
 * The stage line: the tool running now if there is one, else the model thinking (with its
 * count so far), else "Writing" once words of the answer arrive, else the stage, with the
 * place in the queue.
 */
export function stageLine(
  stage: string | null | undefined,
  toolCalls: readonly LiveToolCall[],
  queuePosition?: number,
  thinking?: readonly ThinkingBlock[],
  loading?: { model: string; since: number; now: number },
  writing = false,
): string {
  // A cold start takes seconds to minutes: whole seconds, counted on the page.
  if (stage === 'loading' && loading) return `Loading ${loading.model}… ${Math.max(0, Math.floor((loading.now - loading.since) / 1000))} s`;
  const open = thinking?.at(-1);
  if (open && !open.done) return `Thinking… ${open.pieces ?? 0} token${open.pieces === 1 ? '' : 's'}`;
  const running = toolCalls.filter((c) => c.ok === undefined).at(-1);
  if (running && (stage === 'searching' || stage === null || stage === undefined)) return `${toolDoing(running)}…`;
  if (writing && (stage === 'thinking' || stage === null || stage === undefined)) return `${STAGE_TEXT.writing}…`;
  const text = STAGE_TEXT[stage ?? 'thinking'] ?? 'Working';
  // Place 1 is next; before place n wait n - 1 turns (of anyone: the queue is shared, and fair by person).
  if (stage === 'queued' && queuePosition)
    return queuePosition === 1 ? `${text}: next in line…` : `${text}: ${queuePosition - 1} turn${queuePosition === 2 ? '' : 's'} ahead…`;
  return `${text}…`;
}

/** One line of what a finished call gave back, for the collapsed card. */
export function resultPreview(call: LiveToolCall): string {
  if (call.ok === undefined) return 'running…';
  if (!call.ok) return `failed: ${cut(call.error ?? 'no reason given', 160)}`;
  const r = call.result && typeof call.result === 'object' ? (call.result as Record<string, unknown>) : null;
  if (call.name === 'web_search' && r && Array.isArray(r.results)) {
    const titles = (r.results as { title?: unknown }[]).map((x) => str(x.title)).filter(Boolean);
    return `${titles.length} result${titles.length === 1 ? '' : 's'}${titles.length ? `: ${cut(titles.slice(0, 3).join(' · '), 160)}` : ''}`;
  }
  if (call.name === 'fetch_url' && r) {
    const text = str(r.text) || str(r.content);
    return [str(r.title) || hostOf(str(r.url)), text ? `${text.length.toLocaleString('en')} characters` : ''].filter(Boolean).join(' — ');
  }
  if (call.name === 'calculator' && r && r.result !== undefined) return `= ${cut(String(r.result), 120)}`;
  const json = JSON.stringify(call.result ?? null);
  return cut(typeof call.result === 'string' ? call.result : json, 160);
}

/** Why a draft was set aside, as the page says it. */
export const REASON_LABEL: Record<string, string> = {
  deferral: 'Set aside: it offered to look this up instead of doing it',
  refusal: 'Set aside: it said it could not answer from the results',
  freshness: 'Set aside: this needs current information, so it was sent to look it up',
  verdict: 'Set aside: the check found the draft did not answer the question',
  no_research: 'Set aside: web search is off, so it was asked to answer from what it knows',
  tool_call: 'Thinking aloud before using a tool',
};

/** Generation speed as people read it: whole tokens a second from 100 up, a tenth below. */
export function speed(tokensPerSecond: number): string {
  const tenths = Math.round(tokensPerSecond * 10) / 10;
  return `${tenths >= 100 ? Math.round(tenths) : tenths.toFixed(1)} tokens/s`;
}

/** A duration as the page says it: milliseconds under a second, else seconds to a tenth. */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The head of a Thinking block: live with its count, or how long it took and its tokens. */
export function thinkingLabel(block: Pick<ThinkingBlock, 'done' | 'ms' | 'tokens' | 'pieces'>): string {
  if (!block.done) return `Thinking… ${block.pieces ?? 0} token${block.pieces === 1 ? '' : 's'}`;
  const tokens = block.tokens ?? block.pieces;
  const count = tokens ? ` · ${tokens.toLocaleString('en')} token${tokens === 1 ? '' : 's'}` : '';
  return block.ms !== undefined ? `Thought for ${duration(block.ms)}${count}` : `Thought${count}`;
}
