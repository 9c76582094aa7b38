/**
 * Thinking written inline in a reply's text, split from the answer as the stream arrives.
 *
 * llama-server parses thinking out of the text itself (`--reasoning-format auto`, its default)
 * and streams it as `reasoning_content`. With `--reasoning-format none`, or a template it does
 * not parse, the thinking stays in `content` between the markers the models write, which are
 * the ones llama.cpp's parsers and its page know:
 *   - `<think>` … `</think>` (Qwen3, QwQ, DeepSeek-R1 and its distills, SmolLM3, Phi-4-reasoning);
 *   - `[THINK]` … `[/THINK]` (Magistral, Ministral reasoning);
 *   - gpt-oss's harmony channels leaked as text: `<|channel|>analysis<|message|>` … `<|end|>`, then
 *     `<|start|>assistant<|channel|>final<|message|>` before the answer (its markers are dropped).
 *
 * A marker may be cut across two deltas, so a tail that could be the start of one is held back
 * until the next delta says what it is. A closing marker with no opening one means the template
 * opened the thinking in the prompt (DeepSeek-R1's distills end their generation prompt with
 * `<think>`): everything streamed as answer so far was thinking, and `retracted` says so. An
 * unclosed opening marker at the end leaves all its text as thinking, none as the answer.
 */

type Pair = { open: string; close: string };

const PAIRS: readonly Pair[] = [
  { open: '<think>', close: '</think>' },
  { open: '[THINK]', close: '[/THINK]' },
  { open: '<|channel|>analysis<|message|>', close: '<|end|>' },
];

/** Harmony's markers around the final answer: not text of the answer. */
const DROPPED = ['<|start|>assistant<|channel|>final<|message|>', '<|channel|>final<|message|>', '<|start|>assistant', '<|return|>'];

const MARKERS = [...PAIRS.flatMap((p) => [p.open, p.close]), ...DROPPED];

export type SplitPiece = {
  /** Text of the answer. */
  answer: string;
  /** Text of the thinking. */
  thinking: string;
  /** Answer given out by earlier pieces was thinking after all (a closing marker with no opening one): that text, to take back. It is in `thinking` too. */
  retracted?: string;
};

/** The length of the longest end of `text` that is the start of a marker (held back until the next delta). */
function partialMarkerTail(text: string): number {
  let longest = 0;
  for (const m of MARKERS) {
    for (let n = Math.min(m.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(m.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}

export class InlineThinking {
  private held = '';
  /** The pair whose thinking is open, if any. */
  private open: Pair | null = null;
  /** Answer text given out so far, in case a bare closing marker retracts it. */
  private answered = '';
  /** Whether any opening marker was seen (a closing one after that is no retraction). */
  private opened = false;
  /** After thinking closes the model writes a blank line before the answer: not the answer's text. */
  private trimLead = false;
  /** Nor is the line break after an opening marker the thinking's. */
  private trimThinking = false;

  /** Splits one delta; what may still become a marker stays held. */
  push(text: string): SplitPiece {
    const piece: SplitPiece = { answer: '', thinking: '' };
    let rest = this.held + text;
    this.held = '';
    while (rest) {
      if (this.open) {
        const at = rest.indexOf(this.open.close);
        if (at < 0) {
          const keep = partialMarkerTail(rest);
          this.giveThinking(piece, rest.slice(0, rest.length - keep));
          this.held = rest.slice(rest.length - keep);
          break;
        }
        this.giveThinking(piece, rest.slice(0, at));
        rest = rest.slice(at + this.open.close.length);
        this.open = null;
        this.trimLead = true;
        continue;
      }
      const next = this.nextMarker(rest);
      if (!next) {
        const keep = partialMarkerTail(rest);
        this.giveAnswer(piece, rest.slice(0, rest.length - keep));
        this.held = rest.slice(rest.length - keep);
        break;
      }
      this.giveAnswer(piece, rest.slice(0, next.at));
      rest = rest.slice(next.at + next.marker.length);
      const pair = PAIRS.find((p) => p.open === next.marker);
      if (pair) {
        this.open = pair;
        this.opened = true;
        this.trimThinking = true;
      } else if (!this.opened && PAIRS.some((p) => p.close === next.marker)) {
        // Thinking opened by the prompt: what was given out as answer was thinking. Earlier
        // pieces gave some of it out (the consumer takes that back); this piece's part never went.
        const givenBefore = this.answered.slice(0, this.answered.length - piece.answer.length);
        if (givenBefore) piece.retracted = givenBefore;
        piece.thinking = this.answered + piece.thinking;
        piece.answer = '';
        this.answered = '';
        this.opened = true;
        this.trimLead = true;
      }
      // A dropped marker (or a stray closing one after thinking) is not text.
    }
    return piece;
  }

  /** The end of the reply: what was held is given out as what it was. */
  flush(): SplitPiece {
    const rest = this.held;
    this.held = '';
    if (this.open) {
      const piece: SplitPiece = { answer: '', thinking: '' };
      this.giveThinking(piece, rest);
      return piece;
    }
    const piece: SplitPiece = { answer: '', thinking: '' };
    this.giveAnswer(piece, rest);
    return piece;
  }

  private giveThinking(piece: SplitPiece, text: string) {
    if (this.trimThinking) {
      text = text.replace(/^\s+/, '');
      if (text) this.trimThinking = false;
    }
    piece.thinking += text;
  }

  private giveAnswer(piece: SplitPiece, text: string) {
    if (this.trimLead) {
      text = text.replace(/^\s+/, '');
      if (text) this.trimLead = false;
    }
    if (!text) return;
    piece.answer += text;
    this.answered += text;
  }

  private nextMarker(text: string): { at: number; marker: string } | null {
    let best: { at: number; marker: string } | null = null;
    for (const marker of MARKERS) {
      const at = text.indexOf(marker);
      // The earliest marker; of two at the same place, the longer (harmony's final marker contains another).
      if (at >= 0 && (!best || at < best.at || (at === best.at && marker.length > best.marker.length))) best = { at, marker };
    }
    return best;
  }
}

/** A whole reply's text split at once (a reply that was not streamed). */
export function splitThinking(text: string): { answer: string; thinking: string } {
  const splitter = new InlineThinking();
  const a = splitter.push(text);
  const b = splitter.flush();
  return { answer: (a.answer + b.answer).replace(/^\s+/, ''), thinking: (a.thinking + b.thinking).trim() };
}

/** Thinking asked of a model: left to the model and the server, or on, or off. */
export type ThinkingMode = 'default' | 'on' | 'off';

/**
 * llama-server's fields for a thinking mode (v0.5.0, tools/server/server-common.cpp):
 * `chat_template_kwargs.enable_thinking` (a boolean; Qwen3-style templates read it, and the
 * server's parser follows it), and for "off" also `reasoning_effort: "none"`, which the server
 * turns into enable_thinking false for every template (gpt-oss's reads `reasoning_effort`).
 */
export function thinkingFields(mode: ThinkingMode): Record<string, unknown> {
  if (mode === 'default') return {};
  if (mode === 'on') return { chat_template_kwargs: { enable_thinking: true } };
  return { chat_template_kwargs: { enable_thinking: false }, reasoning_effort: 'none' };
}

/** Request fields with `over` on top of `base`; their chat_template_kwargs are merged key by key. */
export function mergeFields(base: Record<string, unknown> | undefined, over: Record<string, unknown> | undefined): Record<string, unknown> {
  const kwargs = { ...(base?.chat_template_kwargs as object | undefined), ...(over?.chat_template_kwargs as object | undefined) };
  const merged = { ...base, ...over };
  if (Object.keys(kwargs).length) merged.chat_template_kwargs = kwargs;
  return merged;
}
