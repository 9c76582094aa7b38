import { isHearthError } from '@/lib/shared/errors';
import type { ChatMessage, ChatResult, ToolCallRequest } from '@/lib/models/types';
import type { ToolRegistry } from '@/lib/tools/registry';
import { salvageToolCalls } from './salvage';
import type { TurnIO } from './turn-io';

export type RoundInput = {
  /** The prompt every round of the turn starts with. */
  view: ChatMessage[];
  /** What this turn added after it: tool calls and results, notes. */
  turnMessages: readonly ChatMessage[];
  tools: ToolRegistry;
  /** The server refused tools earlier in the turn (no --jinja): none are sent. */
  toolsRefused: boolean;
  allowTools: boolean;
  /** The gate asked for research: the model must call a tool. */
  required: boolean;
  maxTokens: number;
  /** Hears once that the server has begun to answer this round (see TurnIO.callModel). */
  onOutput?: () => void;
};

export type RoundOutcome = {
  result: ChatResult;
  /** Tools were offered and allowed in the call that gave this result. */
  toolsAllowed: boolean;
  /** The server turned out to refuse tools: later rounds send none. */
  toolsRefused: boolean;
};

function validJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * One round's model call with llama.cpp's failure modes handled: a server without --jinja
 * (tools dropped for the turn), a tool call cut off or an older server's parse error, text
 * under "required" (retried with tool_choice "none"), and a reply with only reasoning
 * (retried with thinking off). Tools stay in every request, so the prompt's prefix does not
 * change; "none" is how they are withheld. The loop ends: each retry turns something off
 * for good (the tools offered, tool calls allowed, or thinking), and only while it is on.
 */
export async function modelRound(io: TurnIO, input: RoundInput): Promise<RoundOutcome> {
  const { required } = input;
  let { allowTools, toolsRefused } = input;
  let thinkingOff = false;
  for (;;) {
    const offered = toolsRefused ? [] : input.tools.schemas();
    const toolChoice = offered.length ? (!allowTools ? 'none' : required ? 'required' : 'auto') : undefined;
    let result: ChatResult;
    try {
      result = await io.callModel(
        {
          messages: [...input.view, ...input.turnMessages],
          tools: offered,
          toolChoice,
          maxTokens: input.maxTokens,
          extra: thinkingOff ? { chat_template_kwargs: { enable_thinking: false } } : undefined,
        },
        input.onOutput,
      );
    } catch (err) {
      if (offered.length && isHearthError(err) && err.code === 'model_error' && /requires --jinja/i.test(err.message)) {
        toolsRefused = true;
        io.diagnostics.push('llama-server runs without --jinja, so no tools can be offered; start it with --jinja');
        continue;
      }
      // Older llama-servers answer 500 when a tool call's JSON was cut by max_tokens.
      if (allowTools && isHearthError(err) && err.code === 'model_error' && /tool.?call/i.test(err.message) && /pars/i.test(err.message)) {
        allowTools = false;
        io.emit({ type: 'draft_rejected', reason: 'tool_call', detail: 'the tool call was cut off; answering without tools' });
        continue;
      }
      throw err;
    }
    const toolsAllowed = allowTools && offered.length > 0;
    const cutCall = result.finishReason === 'length' && result.toolCalls.some((c) => !validJson(c.arguments));
    const requiredButText = required && toolsAllowed && result.toolCalls.length === 0 && salvageToolCalls(result.content).length === 0;
    if (toolsAllowed && (cutCall || requiredButText)) {
      allowTools = false;
      if (io.partial)
        io.emit({ type: 'draft_rejected', reason: 'tool_call', detail: cutCall ? 'the tool call was cut off' : 'no tool was called' });
      continue;
    }
    if (!result.content.trim() && result.toolCalls.length === 0 && result.reasoning.trim() && !thinkingOff) {
      thinkingOff = true;
      continue;
    }
    return { result, toolsAllowed, toolsRefused };
  }
}

/**
 * The tool calls a round asked for, each with an id: the server's structured calls, or ones
 * written as text markup when the template did not parse them. A round that cut a call off
 * was retried without tools, so every call here is whole.
 */
export function callsOf({ result, toolsAllowed }: RoundOutcome, round: number): ToolCallRequest[] {
  if (!toolsAllowed) return [];
  const calls = result.toolCalls.length > 0 ? result.toolCalls : salvageToolCalls(result.content);
  return calls.map((c, i) => ({ ...c, id: c.id || `call_${round}_${i}` }));
}
