import type { ToolCallRequest } from '@/lib/models/types';

/**
 * Tool calls written as plain text. Some models emit `<tool_call>{"name": …}</tool_call>` or
 * `<function=name><parameter=k>v</parameter></function>` that llama.cpp's parser misses, so it
 * arrives as content. These are turned into real calls and stripped from what the user sees;
 * a name the model invented becomes a call too, which the registry answers with an {error}
 * naming the tools that exist. While streaming, a tail that may start such markup is held back.
 */

/** What a tool name can look like; anything else in the markup is not a call. */
const TOOL_NAME = /^[\w.-]{1,64}$/;

const MARKERS = ['<tool_call', '<function='];

export function salvageToolCalls(content: string): ToolCallRequest[] {
  const calls: ToolCallRequest[] = [];
  for (const [block] of content.matchAll(/<tool_call>[\s\S]*?(?:<\/tool_call>|$)|<function=[\s\S]*?(?:<\/function>|(?=<function=)|$)/g)) {
    let name: string | undefined;
    let args: Record<string, unknown> = {};
    const json = block.match(/\{[\s\S]*\}/);
    if (json) {
      try {
        const parsed = JSON.parse(json[0]) as { name?: unknown; arguments?: unknown; parameters?: unknown };
        if (typeof parsed.name === 'string') name = parsed.name;
        const a = parsed.arguments ?? parsed.parameters;
        if (typeof a === 'string') args = JSON.parse(a) as Record<string, unknown>;
        else if (a && typeof a === 'object') args = a as Record<string, unknown>;
      } catch {
        // fall through to the tag form
      }
    }
    const fn = block.match(/<function=([\w.-]+)>?/);
    if (!name && fn) name = fn[1];
    for (const p of block.matchAll(/<parameter=([\w.-]+)>\s*([\s\S]*?)\s*(?:<\/parameter>|(?=<parameter=)|(?=<\/function>)|$)/g)) {
      args[p[1]] = p[2];
    }
    if (name && TOOL_NAME.test(name)) {
      // No id: the engine names calls per round, so ids stay unique within the turn.
      calls.push({ id: '', name, arguments: JSON.stringify(args) });
    }
  }
  return calls;
}

/** The text without any tool-call markup. */
export function stripToolMarkup(content: string): string {
  return content
    .replace(/<tool_call>[\s\S]*?(?:<\/tool_call>|$)/g, '')
    .replace(/<function=[\s\S]*?(?:<\/function>|$)/g, '')
    .replace(/<\/?(?:tool_call|function|parameter)[^>]*>/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Passes streamed text through, holding back anything that is or may become tool-call markup. */
export class MarkupHoldback {
  private buffer = '';
  private holding = false;

  push(text: string): string {
    if (this.holding) return '';
    this.buffer += text;
    const at = Math.min(...MARKERS.map((m) => this.buffer.indexOf(m)).filter((i) => i >= 0), Infinity);
    if (at !== Infinity) {
      this.holding = true;
      const out = this.buffer.slice(0, at);
      this.buffer = '';
      return out;
    }
    // Keep back a tail that could be the start of a marker ("<tool_c").
    let keep = 0;
    for (const m of MARKERS) {
      // a prefix as long as the marker is the marker, which indexOf ruled out above; k = keep changes nothing
      for (let k = Math.min(m.length - 1, this.buffer.length); k > keep; k--) {
        if (this.buffer.endsWith(m.slice(0, k))) {
          keep = k;
          break;
        }
      }
    }
    const out = this.buffer.slice(0, this.buffer.length - keep);
    this.buffer = this.buffer.slice(this.buffer.length - keep);
    return out;
  }

  /** At the end of the stream: what was held back only because it might have been markup. */
  flush(): string {
    // Once holding, nothing more was buffered: what is left is empty.
    const out = this.buffer;
    this.buffer = '';
    return out;
  }
}
