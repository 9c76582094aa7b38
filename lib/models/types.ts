import type { UserContent } from './content';

/** The shapes Hearth's engine and decide steps use to talk to a model, whatever serves it. */

export type ToolCallRequest = { id: string; name: string; arguments: string };

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: UserContent }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
      /** The thinking that came with this message, for the templates that render it (llama-server passes it through). */
      reasoning_content?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

export type ToolSchema = {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
};

export type ChatRequest = {
  /** The model to ask for, by the id the server lists (a router or llama-swap loads it); unset: the client's own. */
  model?: string;
  messages: ChatMessage[];
  tools?: ToolSchema[];
  /**
   * Never sent without tools: llama-server cannot satisfy "required" with nothing to call.
   * "none" keeps the tools in the prompt (its prefix, and so the cache, stays the same) while
   * the server parses no tool calls.
   */
  toolChoice?: 'auto' | 'required' | 'none';
  /** Which slot the call belongs with: the conversation's own, or one for short side calls. */
  lane?: 'conversation' | 'side';
  maxTokens?: number;
  temperature?: number;
  /** A JSON schema the answer must follow (llama-server compiles it to a grammar). Never sent with tools. */
  jsonSchema?: Record<string, unknown>;
  /** Grammar-aware token probabilities (post_sampling_probs) with this many top entries. */
  tokenProbs?: number;
  /** llama.cpp request fields the SDK has no types for (chat_template_kwargs, top_k, ...). */
  extra?: Record<string, unknown>;
};

/** One generated token with the grammar-aware probabilities of its alternatives. */
export type TokenProb = { token: string; prob: number; top: { token: string; prob: number }[] };

export type ChatResult = {
  content: string;
  reasoning: string;
  toolCalls: ToolCallRequest[];
  finishReason: 'stop' | 'length' | 'tool_calls' | 'unknown';
  usage: { promptTokens: number; completionTokens: number; /** Prompt tokens the server found in its cache. */ cachedTokens?: number };
  tokenProbs: TokenProb[] | null;
  model: string;
  /** llama.cpp's own timings of the call, when the server sends them. */
  timings?: ServerTimings;
};

/** llama-server's `timings` (tools/server: prompt_n, prompt_ms, predicted_n, predicted_ms, …_per_second). */
export type ServerTimings = {
  promptTokens?: number;
  promptMs?: number;
  predictedTokens?: number;
  predictedMs?: number;
  predictedPerSecond?: number;
  promptPerSecond?: number;
  cachedTokens?: number;
};

export type ChatOptions = {
  signal?: AbortSignal;
  /** Streams the call and reports each content fragment as it arrives (never thinking). */
  onDelta?: (text: string) => void;
  /** The call's thinking as it streams: llama-server's `reasoning_content`, or thinking written inline (lib/models/thinking.ts). */
  onReasoning?: (text: string) => void;
  /**
   * Text already given to onDelta turned out to be thinking (a template that opens the thinking
   * in its prompt): the listener takes it back. It is given to onReasoning as well.
   */
  onRetract?: (text: string) => void;
};

export type ModelHealth = {
  url: string;
  reachable: boolean;
  id?: string;
  /** Every model id the server lists (several behind a router or llama-swap): turns for one of them go here. */
  models?: string[];
  contextSize?: number;
  slots?: number;
  /** The server takes images (llama-server's /props `modalities.vision`: started with a vision projector). */
  vision?: boolean;
  error?: string;
  /** The HTTP status the server answered with, when it answered with an error. */
  answeredStatus?: number;
};

/** The model as the engine sees it: tests hand in a scripted one. */
export interface ModelClient {
  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult>;
  health(): Promise<ModelHealth>;
}
