import type { Port } from '@/lib/shared/awaitable';
import type { ModelClient } from '@/lib/models/types';

/**
 * A thread's title, written by the model after its first exchange: a short plain call (no
 * tools, no schema, thinking off) that reads the question and the start of the answer. What
 * comes back is model output, so it is cleaned and checked: quotes, "Title:" and markdown
 * go, 3 to 6 words are kept; anything else (nothing, a refusal, a paragraph) is no title and
 * the thread keeps the first words of its first message.
 */

/** What the call reads of the exchange: enough for its subject, little enough to be quick. */
const QUESTION_CHARS = 1200;
const ANSWER_CHARS = 800;
export const TITLE_MAX_WORDS = 6;
const TITLE_MIN_WORDS = 3;
const TITLE_MAX_CHARS = 80;

export const TITLE_INSTRUCTION =
  'Write a title of 3 to 6 words for this conversation, naming its subject the way a person would file it. ' +
  'Reply with the title only: no quotes, no "Title:", no full stop.';

export const TITLE_SYSTEM = 'You write short titles for conversations.';

/** Whether a request is a title call (tests that look at a turn's own requests leave these out). */
export const isTitleRequest = (request: { messages: readonly { role: string; content?: unknown }[] }) =>
  request.messages[0]?.role === 'system' && request.messages[0].content === TITLE_SYSTEM;

export function titleRequestMessages(question: string, answer: string) {
  return [
    { role: 'system' as const, content: TITLE_SYSTEM },
    {
      role: 'user' as const,
      content: `Conversation:\nUser: ${clip(question, QUESTION_CHARS)}\nAssistant: ${clip(answer, ANSWER_CHARS)}\n\n${TITLE_INSTRUCTION}`,
    },
  ];
}

function clip(text: string, chars: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > chars ? `${t.slice(0, chars)}…` : t;
}

/** The model's reply as a title, or null when it is not one. */
export function cleanTitle(reply: string): string | null {
  let t = reply
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!t) return null;
  t = t
    .replace(/^#+\s*/, '')
    .replace(/^\**\s*title\b\s*:?\s*\**\s*/i, '')
    .replace(/[*_`]/g, '')
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, '')
    .replace(/[.!。]+$/, '')
    .replace(/\s+/g, ' ');
  // Control and format characters have no place in a title (model output is untrusted).
  t = t.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  const words = t.split(' ').filter(Boolean);
  if (words.length < TITLE_MIN_WORDS && t.length < 12) return null;
  // A sentence or a refusal is not a title.
  if (words.length > TITLE_MAX_WORDS + 4 || /^(I |I'm|Sorry|As an AI)/i.test(t)) return null;
  const kept = words.slice(0, TITLE_MAX_WORDS).join(' ');
  return kept.slice(0, TITLE_MAX_CHARS).trim();
}

export async function writeTitle(
  model: ModelClient,
  exchange: { question: string; answer: string },
  signal: AbortSignal,
): Promise<string | null> {
  const result = await model.chat(
    {
      messages: titleRequestMessages(exchange.question, exchange.answer),
      lane: 'side',
      maxTokens: 24,
      temperature: 0.3,
      extra: { chat_template_kwargs: { enable_thinking: false } },
    },
    { signal },
  );
  return cleanTitle(result.content);
}

export type TitleStore = Port<{
  getThread(args: { id: string }): { titleSource: 'auto' | 'model' | 'user' } | undefined;
  listMessages(args: {
    threadId: string;
  }): { id: string; parentId: string | null; role: 'user' | 'assistant'; content: string; status: string }[];
  setModelTitle(args: { id: string; title: string }): boolean;
}>;

/** Attempts at one thread's title before it keeps its first words (a server that fails, a model that will not). */
const MAX_FAILURES = 2;

/**
 * Titles written in the background: after a thread's first exchange its title is queued, and
 * written while the model pool is idle (lib/models/pool.ts `idle`). A turn that arrives stops
 * the call at once; the title is written after that turn instead. A title the user typed is
 * never replaced: the store only writes over a title of the first words.
 */
export class BackgroundTitles {
  /** Threads waiting for a title, with their failed attempts so far. */
  private readonly pending = new Map<string, number>();
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      store: TitleStore;
      models: { idle(): { model: ModelClient; signal: AbortSignal; release: () => void } | null };
      onTitle?: (threadId: string, title: string) => void;
      log?: (message: string) => void;
    },
  ) {}

  /** After a turn ends: the pool may be free, and a thread whose first exchange just completed wants a title. */
  async afterTurn(threadId: string, completed: boolean) {
    if (completed && !this.pending.has(threadId)) {
      const answers = (await this.deps.store.listMessages({ threadId })).filter(
        (m) => m.role === 'assistant' && m.status === 'complete' && m.content.trim(),
      );
      // Whether the title is still the first words is asked when its turn comes (exchange below).
      if (answers.length === 1) this.pending.set(threadId, 0);
    }
    this.pump();
  }

  /** Resolves when no title is being written (tests wait for it instead of for time). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private pump() {
    if (this.running || this.pending.size === 0) return;
    const lane = this.deps.models.idle();
    if (!lane) return;
    this.running = this.writePending(lane)
      .catch((err: unknown) => {
        // The titler itself broke (its store, not the model): drop the queue, or the pump below
        // would try the same thread again at once, for ever. Those threads keep their first words.
        this.pending.clear();
        this.deps.log?.(`titles: ${(err as Error)?.message ?? err}`);
      })
      .finally(() => {
        lane.release();
        this.running = null;
        // Stopped by a turn: that turn's end calls afterTurn, which resumes.
        if (!lane.signal.aborted) this.pump();
      });
  }

  /** The thread's first complete exchange, while its title is still the first words. */
  private async exchange(threadId: string): Promise<{ question: string; answer: string } | null> {
    const { store } = this.deps;
    if ((await store.getThread({ id: threadId }))?.titleSource !== 'auto') return null;
    const all = await store.listMessages({ threadId });
    const answer = all.find((m) => m.role === 'assistant' && m.status === 'complete' && m.content.trim());
    // The answer's parent: a regenerated answer has a turn of its own, its question the first turn's.
    const question = answer && all.find((m) => m.id === answer.parentId);
    return answer && question ? { question: question.content, answer: answer.content } : null;
  }

  private async writePending(lane: { model: ModelClient; signal: AbortSignal }) {
    for (const [threadId, failures] of [...this.pending]) {
      if (lane.signal.aborted) return;
      const exchange = await this.exchange(threadId);
      if (!exchange) {
        this.pending.delete(threadId);
        continue;
      }
      try {
        const title = await writeTitle(lane.model, exchange, lane.signal);
        this.pending.delete(threadId);
        if (title && (await this.deps.store.setModelTitle({ id: threadId, title }))) this.deps.onTitle?.(threadId, title);
      } catch (err) {
        if (lane.signal.aborted) return;
        if (failures + 1 >= MAX_FAILURES) {
          this.pending.delete(threadId);
          this.deps.log?.(`thread ${threadId}: no title from the model: ${(err as Error)?.message ?? err}`);
        } else this.pending.set(threadId, failures + 1);
      }
    }
  }
}
