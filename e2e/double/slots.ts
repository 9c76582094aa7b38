import { createHash } from 'node:crypto';
/**
 * llama-server's slots and their prompt cache, as tools/server/server-context.cpp (v0.5.0)
 * does it, so Hearth's prompt-prefix and slot routing can be measured against the double:
 *
 * - A request names a slot with `id_slot` (wrapped modulo the slot count); if that slot is
 *   busy the request waits for it ("requested slot is unavailable, defer task").
 * - Without `id_slot`, the idle slot whose cached tokens share the longest common prefix with
 *   the prompt wins if that prefix is over 10 % of the prompt (`--slot-prompt-similarity`
 *   0.1); otherwise the least recently used idle slot. With no idle slot the request waits.
 * - A slot reuses the common prefix of its cached tokens (the previous prompt and the answer
 *   generated after it) and the new prompt, but always re-reads the prompt's last token: the
 *   same prompt twice gives 30 of 31 tokens cached (samples 10 and 12).
 * - `usage.prompt_tokens` is the whole prompt; `prompt_tokens_details.cached_tokens` and
 *   `timings.cache_n` the reused part; `timings.prompt_n` what was read.
 * - `/metrics` counts `llamacpp:prompt_tokens_total` (read, cache excluded) and
 *   `llamacpp:prompt_tokens_cached_total`.
 *
 * - The host-memory prompt cache (`--cache-ram`, on by default with 8 GiB; server-task.cpp
 *   `server_prompt_cache`). When a slot is taken by the least-recently-used rule, or its new
 *   prompt would keep under half of what it holds (`f_keep < 0.5`, computed from the similarity
 *   pass, which with `id_slot` looks at that slot only), the slot's tokens are saved to host
 *   memory (unless an entry already holds them all; entries they hold all of are dropped), and
 *   the entry most like the new prompt is loaded into the slot if it keeps at least a quarter
 *   of itself and beats the slot on both keep and similarity. So a one-slot server that
 *   answers a short side call between two turns still finds the conversation's prefix.
 *   The limit is modelled in tokens (`hostCacheTokens`), oldest entries dropped first.
 */

/**
 * The prompt as the model sees it, rendered with a ChatML-like template (Qwen3's), tools in the
 * system block. As models/templates/Qwen-Qwen3-0.6B.jinja does, an assistant message's
 * `reasoning_content` is rendered (`<think>…</think>` before its text) only after the last
 * question, that is within the turn's own tool calls; earlier answers go without it. A thinking
 * model asked not to think gets an empty thinking block in its generation prompt.
 */
export function renderPrompt(messages: PromptMessage[], tools: unknown[], { thinkingOff = false }: { thinkingOff?: boolean } = {}): string {
  const parts: string[] = [];
  const lastQuestion = messages.map((m) => m.role).lastIndexOf('user');
  const first = messages[0];
  const system = first?.role === 'system' ? textOf(first.content) : '';
  const toolBlock = tools.length ? `# Tools\n<tools>\n${tools.map((t) => JSON.stringify(t)).join('\n')}\n</tools>` : '';
  if (system || toolBlock) parts.push(`<|im_start|>system\n${[system, toolBlock].filter(Boolean).join('\n\n')}<|im_end|>\n`);
  messages.forEach((m, i) => {
    if (i === 0 && m.role === 'system') return;
    if (m.role === 'tool') parts.push(`<|im_start|>user\n<tool_response>\n${textOf(m.content)}\n</tool_response><|im_end|>\n`);
    else if (m.role === 'assistant') {
      const calls = Array.isArray(m.tool_calls) ? (m.tool_calls as PromptToolCall[]) : [];
      const reasoning = i > lastQuestion && typeof m.reasoning_content === 'string' ? m.reasoning_content : '';
      parts.push(`<|im_start|>assistant\n${thinkingBlock(reasoning)}${renderAnswer(textOf(m.content), calls)}<|im_end|>\n`);
    } else parts.push(`<|im_start|>${m.role}\n${textOf(m.content)}<|im_end|>\n`);
  });
  parts.push(`<|im_start|>assistant\n${thinkingOff ? '<think>\n\n</think>\n\n' : ''}`);
  return parts.join('');
}

/** Thinking as Qwen3 writes it before its answer (nothing when there is none). */
export function thinkingBlock(reasoning: string): string {
  return reasoning ? `<think>\n${reasoning.trim()}\n</think>\n\n` : '';
}

/** What the model writes for an answer: its text, then each tool call as Qwen's markup. */
export function renderAnswer(content: string, toolCalls: PromptToolCall[]): string {
  const calls = toolCalls.map(
    (c) => `<tool_call>\n{"name": ${JSON.stringify(c.function.name)}, "arguments": ${c.function.arguments}}\n</tool_call>`,
  );
  return [content, ...calls].filter(Boolean).join('\n');
}

/**
 * Roughly a real tokenizer's granularity (up to 4 characters a token, a leading space kept
 * with its word); the template's markers and newlines are tokens of their own, as in ChatML
 * vocabularies, so an answer's tokens line up with the same text read back in the next prompt.
 */
export function promptTokens(text: string): string[] {
  return text.match(/<\|im_(?:start|end)\|>|\n|[ \t]?[^\s<]{1,4}|[ \t]?<|[ \t]/g) ?? [];
}

export type PromptToolCall = { function: { name: string; arguments: string } };
export type PromptMessage = { role: string; content?: unknown; tool_calls?: unknown; reasoning_content?: unknown };

/** What one image costs in the prompt here (a real projector's count depends on the model and the image's size). */
export const IMAGE_TOKENS = 256;

/**
 * A message's text as the template sees it. An image becomes IMAGE_TOKENS tokens derived from
 * its bytes, so the same image at the same place keeps the cached prefix and another one does not.
 */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => {
      const part = p as { type?: unknown; text?: unknown; image_url?: { url?: unknown } };
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'image_url') {
        const tag = createHash('sha256')
          .update(String(part.image_url?.url ?? ''))
          .digest('hex')
          .slice(0, 3);
        return ` ${tag}`.repeat(IMAGE_TOKENS);
      }
      return '';
    })
    .join('');
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

type Slot = { id: number; tokens: string[]; busy: boolean; lastUsed: number };
/** What `--cache-ram` keeps: earlier slot contents, oldest first. */
type HostEntry = { tokens: string[] };
type Waiter = { idSlot: number | undefined; tokens: string[]; reuse: boolean; grant: (lease: SlotLease) => void; gone: () => boolean };

export type SlotLease = {
  slot: number;
  /** Prompt tokens reused from the slot's cache. */
  cached: number;
  /** The whole prompt, in tokens. */
  promptTokens: number;
  /** Frees the slot; with the answer's tokens when it finished (they join the slot's cache). */
  release(answerTokens?: string[]): void;
};

export type SlotMetrics = {
  promptTokensRead: number;
  promptTokensCached: number;
  tokensPredicted: number;
  /** Requests that had to wait for a slot, since the start (the gauge on /metrics is the current count). */
  requestsDeferred: number;
  nTokensMax: number;
};

export class SlotPool {
  private readonly slots: Slot[];
  private readonly waiting: Waiter[] = [];
  private readonly host: HostEntry[] = [];
  private clock = 0;
  readonly metrics: SlotMetrics = { promptTokensRead: 0, promptTokensCached: 0, tokensPredicted: 0, requestsDeferred: 0, nTokensMax: 0 };

  constructor(
    count: number,
    private readonly similarity = 0.1,
    /** The host-memory prompt cache's size in tokens; 0 turns it off (`--cache-ram 0`). */
    private readonly hostCacheTokens = 65_536,
  ) {
    this.slots = Array.from({ length: Math.max(1, count) }, (_, id) => ({ id, tokens: [], busy: false, lastUsed: 0 }));
  }

  get size(): number {
    return this.slots.length;
  }

  /** How many tokens a slot holds: its last prompt and what the model wrote after it. */
  held(id: number): number {
    return this.slots[id]?.tokens.length ?? 0;
  }

  busy(id: number): boolean {
    return this.slots[id]?.busy ?? false;
  }

  get processing(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  get deferred(): number {
    return this.waiting.length;
  }

  /**
   * Takes a slot for a prompt: the named one, or the best idle one; waits while none fits.
   * `gone` tells whether the client left while waiting (the request is then dropped).
   */
  acquire(args: { idSlot?: number; tokens: string[]; cachePrompt?: boolean; gone?: () => boolean }): Promise<SlotLease> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        idSlot: args.idSlot === undefined || args.idSlot < 0 ? undefined : args.idSlot % this.slots.length,
        tokens: args.tokens,
        reuse: args.cachePrompt !== false,
        grant: resolve,
        gone: args.gone ?? (() => false),
      };
      if (!this.tryGrant(waiter)) {
        this.metrics.requestsDeferred++;
        this.waiting.push(waiter);
      }
    });
  }

  /** The slot for a prompt (server-context.cpp `get_available_slot`), and whether the host cache is consulted. */
  private pick(w: Waiter): { slot: Slot; updateCache: boolean } | undefined {
    let chosen: Slot | undefined;
    if (w.idSlot !== undefined) {
      chosen = this.slots[w.idSlot];
      if (chosen.busy) return undefined;
    }
    let best: Slot | undefined;
    let bestSim = 0;
    for (const slot of this.slots) {
      if (w.idSlot !== undefined && slot.id !== w.idSlot) continue;
      if (slot.busy || slot.tokens.length === 0) continue;
      const sim = commonPrefix(slot.tokens, w.tokens) / Math.max(1, w.tokens.length);
      if (sim > bestSim && sim > this.similarity) {
        bestSim = sim;
        best = slot;
      }
    }
    chosen = best ?? chosen;
    if (chosen) {
      // An empty slot gives 0/0 (NaN) there, which is not under a half: nothing is saved or loaded.
      const keep = (bestSim * w.tokens.length) / chosen.tokens.length;
      return { slot: chosen, updateCache: keep < 0.5 };
    }
    const idle = this.slots.filter((s) => !s.busy);
    const lru = idle.sort((a, b) => a.lastUsed - b.lastUsed)[0];
    return lru ? { slot: lru, updateCache: true } : undefined;
  }

  /** prompt_save then prompt_load (server-task.cpp `server_prompt_cache::alloc`, `load`, `update`). */
  private swapWithHostCache(slot: Slot, prompt: string[]) {
    if (this.hostCacheTokens <= 0) return;
    const held = slot.tokens;
    if (held.length > 0 && !this.host.some((e) => commonPrefix(e.tokens, held) === held.length)) {
      for (let i = this.host.length - 1; i >= 0; i--)
        if (commonPrefix(this.host[i].tokens, held) === this.host[i].tokens.length) this.host.splice(i, 1);
      this.host.push({ tokens: held });
    }
    const lcpSlot = commonPrefix(held, prompt);
    let keepBest = held.length > 0 ? lcpSlot / held.length : -1;
    let simBest = lcpSlot / Math.max(1, prompt.length);
    let found = -1;
    this.host.forEach((entry, i) => {
      const lcp = commonPrefix(entry.tokens, prompt);
      const keep = lcp / entry.tokens.length;
      const sim = lcp / Math.max(1, prompt.length);
      if (keep < 0.25) return; // don't trash large prompts
      if (keepBest < keep && simBest < sim) {
        keepBest = keep;
        simBest = sim;
        found = i;
      }
    });
    if (found >= 0) slot.tokens = this.host.splice(found, 1)[0].tokens;
    let total = this.host.reduce((n, e) => n + e.tokens.length, 0);
    while (this.host.length > 0 && total > this.hostCacheTokens) total -= this.host.shift()!.tokens.length;
  }

  private tryGrant(w: Waiter): boolean {
    const picked = this.pick(w);
    if (!picked) return false;
    const { slot } = picked;
    if (picked.updateCache) this.swapWithHostCache(slot, w.tokens);
    slot.busy = true;
    const prompt = w.tokens;
    // The last prompt token is always read again, so a repeated prompt reuses all but one.
    const cached = w.reuse ? Math.min(commonPrefix(slot.tokens, prompt), Math.max(0, prompt.length - 1)) : 0;
    let released = false;
    w.grant({
      slot: slot.id,
      cached,
      promptTokens: prompt.length,
      release: (answerTokens) => {
        if (released) return;
        released = true;
        slot.busy = false;
        slot.lastUsed = ++this.clock;
        if (answerTokens) {
          // What the slot holds now: this prompt and the answer generated after it.
          slot.tokens = [...prompt, ...answerTokens];
          this.metrics.tokensPredicted += answerTokens.length;
          this.metrics.nTokensMax = Math.max(this.metrics.nTokensMax, slot.tokens.length);
        }
        this.advance();
      },
    });
    return true;
  }

  /** Records what a granted prompt cost (called once the request is known to run). */
  count(lease: Pick<SlotLease, 'cached' | 'promptTokens'>): void {
    this.metrics.promptTokensCached += lease.cached;
    this.metrics.promptTokensRead += lease.promptTokens - lease.cached;
  }

  private advance() {
    for (let i = 0; i < this.waiting.length;) {
      const w = this.waiting[i];
      if (w.gone()) {
        this.waiting.splice(i, 1);
        continue;
      }
      if (this.tryGrant(w)) this.waiting.splice(i, 1);
      else i++;
    }
  }

  /** Prometheus text like llama-server's /metrics (the counters the double keeps). */
  prometheus(): string {
    const m = this.metrics;
    const rows: [string, string, 'counter' | 'gauge', number][] = [
      ['prompt_tokens_total', 'Number of prompt tokens processed, excluding cached tokens', 'counter', m.promptTokensRead],
      ['prompt_tokens_cached_total', 'Number of prompt tokens reused from the cache', 'counter', m.promptTokensCached],
      ['tokens_predicted_total', 'Number of generation tokens processed', 'counter', m.tokensPredicted],
      ['n_tokens_max', 'Largest observed sequence length (prompt + generation)', 'counter', m.nTokensMax],
      ['requests_processing', 'Number of requests processing', 'gauge', this.processing],
      ['requests_deferred', 'Number of requests deferred', 'gauge', this.deferred],
    ];
    return rows
      .map(([name, help, type, value]) => `# HELP llamacpp:${name} ${help}\n# TYPE llamacpp:${name} ${type}\nllamacpp:${name} ${value}\n`)
      .join('');
  }
}
