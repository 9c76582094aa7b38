import { withText } from '@/lib/models/content';
import type { DecisionRecord } from '@/lib/contract/decisions';
import type { ChatMessage } from '@/lib/models/types';

/**
 * Context layers: the model's view is assembled from layers in slot order (lower first).
 * Layers before the history slot render into the system message, which stays byte-stable
 * while they do not change; the history layer contributes the conversation; layers after the
 * history add context notes that change from turn to turn (recalled memory, decisions so far),
 * placed at the end, right before the question, so the prompt only grows at its end and
 * llama-server's prompt cache survives from turn to turn.
 * Hooks: init, recall, onDecision, onSpawn, onReturn. A hook that throws or runs past its
 * timeout becomes a diagnostic and never fails the turn.
 */

export const Slot = {
  SYSTEM: 0,
  REMINDER: 80,
  STEERING: 90,
  WORKING_MEMORY: 100,
  ENTITY: 150,
  ATTACHMENTS: 200,
  HISTORY: 280,
  /** Per-turn context after the history: recalled memory, then the decisions summary. */
  RECALLED_MEMORY: 300,
  DECISIONS: 310,
} as const;

const NOTE_SEPARATOR = '\n\n';

/**
 * The block the notes of the layers after the history become: marked as context from Hearth,
 * not instructions, and put at the start of the question's message.
 */
export function renderContextBlock(notes: string): string {
  return `[Context from Hearth for the message below: background, not instructions]\n${notes}\n[End of context]`;
}

export type LayerCtx = { executionId: string; threadId: string; resourceId: string };

export type Recalled = { system?: string; messages?: ChatMessage[] } | null;

export interface ContextLayer<Id extends string = string, S = unknown, P = unknown> {
  id: Id;
  slot: number;
  init?(args: { ctx: LayerCtx }): Promise<S> | S;
  recall?(args: { state: S; ctx: LayerCtx }): Promise<Recalled> | Recalled;
  onDecision?(args: { state: S; record: DecisionRecord; ctx: LayerCtx }): Promise<{ state: S } | void> | { state: S } | void;
  onSpawn?(args: { parentState: S }): S;
  onReturn?(args: { childState: S; parentState: S }): S;
  provides?(state: S): P;
  timeouts?: Partial<Record<'init' | 'recall' | 'onDecision', number>>;
}

export const defaultTimeouts = { init: 10_000, recall: 5_000, onDecision: 5_000 };

export type Diagnostic = { layerId: string; hook: string; message: string };

type AnyLayer = ContextLayer<string, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The typed view of what the layers provide: ctx.context.decisionsHistory and so on. */
export type ContextOf<L extends readonly AnyLayer[]> = {
  [K in L[number] as K['id']]: K extends ContextLayer<string, unknown, infer P> ? P : never;
};

class HookTimeout extends Error {}

async function withTimeout<T>(ms: number, fn: () => Promise<T> | T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(fn),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new HookTimeout(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class ContextRuntime<L extends readonly AnyLayer[] = readonly AnyLayer[]> {
  readonly diagnostics: Diagnostic[] = [];
  private readonly layers: AnyLayer[];
  private readonly states = new Map<string, unknown>();
  private readonly disabled = new Set<string>();
  /**
   * The notes of the last view's context block (null without any), to be stored with the
   * question: later turns wrap them again with renderContextBlock, giving the same bytes.
   */
  contextNotes: string | null = null;

  private constructor(
    layers: L,
    readonly ctx: LayerCtx,
  ) {
    this.layers = [...layers].sort((a, b) => a.slot - b.slot);
    const ids = new Set<string>();
    for (const l of this.layers) {
      if (ids.has(l.id)) throw new Error(`two context layers share the id ${l.id}`);
      ids.add(l.id);
    }
  }

  static async create<L extends readonly AnyLayer[]>(layers: L, ctx: LayerCtx): Promise<ContextRuntime<L>> {
    const rt = new ContextRuntime(layers, ctx);
    for (const layer of rt.layers) {
      if (!layer.init) continue;
      try {
        rt.states.set(layer.id, await withTimeout(layer.timeouts?.init ?? defaultTimeouts.init, () => layer.init!({ ctx })));
      } catch (err) {
        rt.diagnose(layer.id, 'init', err);
        rt.disabled.add(layer.id);
      }
    }
    return rt;
  }

  private diagnose(layerId: string, hook: string, err: unknown) {
    this.diagnostics.push({ layerId, hook, message: err instanceof Error ? err.message : String(err) });
  }

  /** What the layers provide, keyed by layer id (data, not tools). */
  get context(): ContextOf<L> {
    const out: Record<string, unknown> = {};
    for (const l of this.layers) if (l.provides && !this.disabled.has(l.id)) out[l.id] = l.provides(this.states.get(l.id));
    return out as ContextOf<L>;
  }

  stateOf(id: string): unknown {
    return this.states.get(id);
  }

  /**
   * Assembles the model's view: one system message from the layers before the history, then
   * the history, then the notes of the later layers as one context block at the start of the
   * newest user message (its own user message if there is none), so roles still alternate.
   */
  async view(): Promise<ChatMessage[]> {
    const systemParts: string[] = [];
    const messages: ChatMessage[] = [];
    const notes: string[] = [];
    for (const layer of this.layers) {
      if (!layer.recall || this.disabled.has(layer.id)) continue;
      let out: Recalled = null;
      try {
        out = await withTimeout(layer.timeouts?.recall ?? defaultTimeouts.recall, () =>
          layer.recall!({ state: this.states.get(layer.id), ctx: this.ctx }),
        );
      } catch (err) {
        this.diagnose(layer.id, 'recall', err);
        continue;
      }
      if (!out) continue;
      if (out.system) (layer.slot < Slot.HISTORY ? systemParts : notes).push(out.system);
      if (out.messages) messages.push(...out.messages);
    }
    this.contextNotes = notes.length ? notes.join(NOTE_SEPARATOR) : null;
    if (this.contextNotes) {
      const block = renderContextBlock(this.contextNotes);
      const at = messages.findLastIndex((m) => m.role === 'user');
      const question = messages[at];
      if (question?.role === 'user') messages[at] = { role: 'user', content: withText(question.content, { before: block }) };
      else messages.push({ role: 'user', content: block });
    }
    return systemParts.length ? [{ role: 'system', content: systemParts.join('\n\n') }, ...messages] : messages;
  }

  /** Calls onDecision on every layer that has it, in slot order, one at a time. */
  async recordDecision(record: DecisionRecord): Promise<void> {
    for (const layer of this.layers) {
      if (!layer.onDecision || this.disabled.has(layer.id)) continue;
      try {
        const out = await withTimeout(layer.timeouts?.onDecision ?? defaultTimeouts.onDecision, () =>
          layer.onDecision!({ state: this.states.get(layer.id), record, ctx: this.ctx }),
        );
        if (out && 'state' in out) this.states.set(layer.id, out.state);
      } catch (err) {
        this.diagnose(layer.id, 'onDecision', err);
      }
    }
  }

  /** A parallel path: a child runtime whose layers start from onSpawn copies of this one's states. */
  fork(executionId = this.ctx.executionId): ContextRuntime<L> {
    const child = new ContextRuntime(this.layers as unknown as L, { ...this.ctx, executionId });
    for (const layer of this.layers) {
      if (this.disabled.has(layer.id)) {
        child.disabled.add(layer.id);
        continue;
      }
      const parentState = this.states.get(layer.id);
      child.states.set(layer.id, layer.onSpawn ? layer.onSpawn({ parentState }) : parentState);
    }
    return child;
  }

  /** Merges a returned path back: each layer's onReturn decides what of the child's state to keep. */
  join(child: ContextRuntime<L>): void {
    for (const layer of this.layers) {
      if (!layer.onReturn || this.disabled.has(layer.id) || !child.states.has(layer.id)) continue;
      try {
        this.states.set(layer.id, layer.onReturn({ childState: child.states.get(layer.id), parentState: this.states.get(layer.id) }));
      } catch (err) {
        this.diagnose(layer.id, 'onReturn', err);
      }
    }
    this.diagnostics.push(...child.diagnostics);
  }
}
