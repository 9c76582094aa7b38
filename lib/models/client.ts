import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import { causes, HearthError, isHearthError } from '@/lib/shared/errors';
import { InlineThinking, splitThinking } from './thinking';
import type { ChatOptions, ChatRequest, ChatResult, ModelClient, ModelHealth, ServerTimings, TokenProb, ToolCallRequest } from './types';

/**
 * The model client for llama-server's OpenAI-compatible API, over the `openai` package.
 * It streams chat completions and assembles content and tool-call deltas, passes llama.cpp's
 * own request fields through, reads grammar-aware token probabilities, and maps every failure
 * to a HearthError: model_unreachable, model_error, context_overflow, model_stream_broken,
 * cancelled.
 */

/** llama.cpp fields the SDK's types do not know, read from chunks and responses. */
type LlamaProb = { token?: string; bytes?: number[]; prob?: number; top_probs?: LlamaProb[] };
type LlamaChoiceExtras = { logprobs?: { content?: LlamaProb[] | null } | null };
type LlamaDeltaExtras = { reasoning_content?: string | null };

export type LlamaClientOptions = {
  baseURL: string;
  apiKey?: string;
  /** The model to ask for; when unset, the first id /models reports (or "local"). */
  model?: string;
  timeoutMs: number;
  /** How long a call may take to connect (a GPU box that rebooted answers nothing at all). */
  connectTimeoutMs?: number;
  /** How long a call may wait for its first byte, and a stream for each next one (a stale connection to a dead peer). */
  firstByteTimeoutMs?: number;
  /** How long health checks wait; a dead server must not hang the page. */
  healthTimeoutMs?: number;
  fetch?: typeof fetch;
};

function tokenText(p: LlamaProb): string {
  // A token that is not valid UTF-8 on its own has a truncated `token`; bytes are exact.
  if (Array.isArray(p.bytes) && p.bytes.length > 0) return Buffer.from(p.bytes).toString('utf8');
  return p.token ?? '';
}

export function readTokenProbs(content: LlamaProb[] | null | undefined): TokenProb[] | null {
  if (!Array.isArray(content) || content.length === 0) return null;
  return content.map((entry) => ({
    token: tokenText(entry),
    prob: typeof entry.prob === 'number' ? entry.prob : 0,
    top: (entry.top_probs ?? []).map((t) => ({ token: tokenText(t), prob: typeof t.prob === 'number' ? t.prob : 0 })),
  }));
}

/** What each deadline of deadlineFetch says when it is missed, by undici's code for it. */
const DEADLINE_WORDS: Record<string, (connectS: string, firstByteS: string) => string> = {
  UND_ERR_CONNECT_TIMEOUT: (c) => `could not be connected to within ${c}`,
  UND_ERR_HEADERS_TIMEOUT: (_, b) => `sent nothing back within ${b}`,
};
const DEADLINE_MARK = 'hearth.deadline';

/**
 * The words of a missed deadline in an error or anything it was caused by; undefined for none.
 * A deadline missed while a stream's body is read comes from undici unmarked, by its code.
 */
export function missedDeadline(err: unknown): string | undefined {
  for (const e of causes(err)) {
    if (e.mark === DEADLINE_MARK) return String(e.message);
    if (e.code === 'UND_ERR_BODY_TIMEOUT') return 'sent nothing more in time';
  }
  return undefined;
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * A fetch whose connections have deadlines: to connect, to the first byte of the answer, and
 * between the bytes of a stream. Without them a call to a server that vanished (a pooled
 * keep-alive connection to a rebooted box, a host that drops packets) waits for the operating
 * system's TCP timeouts, minutes, and the turn looks hung. undici is the client inside Node's
 * own fetch; its Agent is where these deadlines are set. A missed one is rethrown marked with
 * its words (the openai client keeps it as the cause of its connection error).
 */
export function deadlineFetch(
  { connectMs, firstByteMs }: { connectMs: number; firstByteMs: number },
  base: typeof undiciFetch = undiciFetch,
): typeof fetch {
  const dispatcher = new Agent({ connect: { timeout: connectMs }, headersTimeout: firstByteMs, bodyTimeout: firstByteMs });
  const marked = (err: unknown): unknown => {
    for (const e of causes(err)) {
      const words = DEADLINE_WORDS[String(e.code)];
      if (words) return Object.assign(new Error(words(seconds(connectMs), seconds(firstByteMs))), { mark: DEADLINE_MARK });
    }
    return err;
  };
  return (async (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
    try {
      return await base(input, { ...init, dispatcher });
    } catch (err) {
      throw marked(err);
    }
  }) as unknown as typeof fetch;
}

/**
 * Why a server could not be asked, as a person can act on it: what was tried, what happened, what
 * to check (fetch itself says only "fetch failed"; the reason is in its cause's code).
 */
export function unreachableReason(err: unknown, url: string, timeoutMs: number): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
  const code = cause?.code ?? (err as { code?: string } | null)?.code;
  const name = (err as { name?: string } | null)?.name;
  const host = URL.canParse(url) ? new URL(url).host : url;
  const tried = `Tried GET ${url}:`;
  if (code === 'ECONNREFUSED')
    return `${tried} nothing is listening at ${host}. Check that llama-server is running and that its --host and --port match this address.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${tried} the host name ${host.replace(/:\d+$/, '')} was not found. Check the address for a typo, or use the machine's IP address.`;
  if (name === 'TimeoutError' || code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `${tried} no answer within ${Math.round(timeoutMs / 100) / 10} s. Check that the machine is on and reachable, and that no firewall blocks port ${new URL(url).port || 'the port'}.`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `${tried} the connection was closed before an answer. Check that this port is llama-server's and not another program's.`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `${tried} the network cannot reach ${host}. Check that the machine is on the same network.`;
  if ((err instanceof Error && err.message === 'bad port') || cause?.message === 'bad port')
    return `${tried} port ${new URL(url).port} is one that fetch refuses to use (a well-known port of another service). Run llama-server on another port, such as 8080.`;
  if (/CERT|SSL|TLS/i.test(code ?? '') || /certificate/i.test(cause?.message ?? ''))
    return `${tried} the TLS certificate was refused (${cause?.message ?? code}). Use http:// for a llama-server without TLS.`;
  const detail = cause?.message ?? (err instanceof Error ? err.message : String(err));
  return `${tried} ${detail}. Check that llama-server is running at that address.`;
}

/** Turns any failure of a call into the HearthError the engine and the UI understand. */
export function mapModelError(err: unknown, baseURL: string): HearthError {
  if (isHearthError(err)) return err;
  if (err instanceof APIUserAbortError || (err instanceof Error && err.name === 'AbortError')) {
    return new HearthError('cancelled', 'The model call was stopped.');
  }
  const deadline = missedDeadline(err);
  if (deadline && (err instanceof APIConnectionError || !(err instanceof APIError))) {
    return new HearthError('model_unreachable', `The model server at ${baseURL} ${deadline}.`);
  }
  if (err instanceof APIConnectionTimeoutError) {
    return new HearthError('model_unreachable', `The model server at ${baseURL} did not answer in time.`);
  }
  if (err instanceof APIConnectionError) {
    return new HearthError('model_unreachable', `The model server at ${baseURL} cannot be reached.`);
  }
  if (err instanceof APIError) {
    const body = (err.error ?? {}) as { type?: string; message?: string; n_prompt_tokens?: number; n_ctx?: number };
    if (body.type === 'exceed_context_size_error') {
      return new HearthError(
        'context_overflow',
        `This conversation is longer than the model's context (${body.n_prompt_tokens ?? '?'} tokens for ${body.n_ctx ?? '?'}). Start a new thread or run llama-server with a larger -c.`,
        { nPromptTokens: body.n_prompt_tokens, nCtx: body.n_ctx },
      );
    }
    const message = body.message ?? err.message;
    return new HearthError('model_error', `The model server answered with an error: ${message}`, {
      status: err.status,
      type: body.type,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new HearthError('model_stream_broken', `The model's reply stopped early: ${message}`);
}

function buildBody(request: ChatRequest, stream: boolean, model: string): Record<string, unknown> {
  if (request.tools?.length && request.jsonSchema) {
    // With both, llama-server lets the schema win and no tool call can happen.
    throw new HearthError('internal', 'tools and a JSON schema cannot go in one request');
  }
  const body: Record<string, unknown> = { model, messages: request.messages, stream };
  if (stream) body.stream_options = { include_usage: true };
  if (request.tools?.length) {
    body.tools = request.tools;
    body.tool_choice = request.toolChoice ?? 'auto';
  }
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.jsonSchema) {
    body.response_format = { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: request.jsonSchema } };
  }
  if (request.tokenProbs) {
    if (stream && request.tools?.length) throw new HearthError('internal', 'llama-server refuses logprobs with tools on a stream');
    // Grammar-aware probabilities need neutral sampling: at temperature 0 every entry is 1.0.
    Object.assign(body, {
      logprobs: true,
      top_logprobs: request.tokenProbs,
      post_sampling_probs: true,
      temperature: 1,
      top_k: 0,
      top_p: 1,
      min_p: 0,
    });
  }
  return { ...body, ...request.extra };
}

export function createLlamaClient(options: LlamaClientOptions): ModelClient {
  const baseURL = options.baseURL.replace(/\/+$/, '');
  const f =
    options.fetch ?? deadlineFetch({ connectMs: options.connectTimeoutMs ?? 5_000, firstByteMs: options.firstByteTimeoutMs ?? 120_000 });
  const openai = new OpenAI({
    baseURL,
    apiKey: options.apiKey ?? 'not-needed',
    // llama-server's 500s are deterministic (bad requests), so retrying them only wastes time.
    maxRetries: 0,
    timeout: options.timeoutMs,
    fetch: f,
  });

  // llama-server ignores the model name in single-model mode; routers such as llama-swap need it.
  let modelName = options.model;

  async function chat(request: ChatRequest, opts: ChatOptions = {}): Promise<ChatResult> {
    const stream = Boolean(opts.onDelta);
    const body = buildBody(request, stream, request.model ?? modelName ?? 'local');
    try {
      if (!stream) {
        const res = (await openai.chat.completions.create(body as never, { signal: opts.signal })) as OpenAI.ChatCompletion;
        const choice = res.choices[0];
        if (!choice) throw new HearthError('model_error', 'The model server returned no choices.');
        const message = choice.message as OpenAI.ChatCompletionMessage & LlamaDeltaExtras;
        const inline = splitThinking(message.content ?? '');
        return {
          content: inline.thinking ? inline.answer : (message.content ?? ''),
          reasoning: [message.reasoning_content ?? '', inline.thinking].filter(Boolean).join('\n'),
          toolCalls: (message.tool_calls ?? []).flatMap((c) =>
            c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
          ),
          finishReason: normaliseFinish(choice.finish_reason),
          usage: { promptTokens: res.usage?.prompt_tokens ?? 0, completionTokens: res.usage?.completion_tokens ?? 0, ...cached(res.usage) },
          tokenProbs: readTokenProbs((choice as unknown as LlamaChoiceExtras).logprobs?.content),
          model: res.model,
          ...readTimings((res as { timings?: unknown }).timings),
        };
      }

      const chunks = (await openai.chat.completions.create(body as never, {
        signal: opts.signal,
      })) as unknown as AsyncIterable<OpenAI.ChatCompletionChunk>;
      let content = '';
      let reasoning = '';
      const inline = new InlineThinking();
      const think = (text: string) => {
        if (!text) return;
        reasoning += text;
        opts.onReasoning?.(text);
      };
      const answer = (piece: { answer: string; thinking: string; retracted?: string }) => {
        if (piece.retracted !== undefined) {
          content = content.slice(0, content.length - piece.retracted.length);
          opts.onRetract?.(piece.retracted);
        }
        think(piece.thinking);
        if (piece.answer) {
          content += piece.answer;
          opts.onDelta?.(piece.answer);
        }
      };
      let finish: string | null = null;
      let model = '';
      const usage: ChatResult['usage'] = { promptTokens: 0, completionTokens: 0 };
      let timings: ChatResult['timings'];
      const calls = new Map<number, ToolCallRequest>();
      try {
        for await (const chunk of chunks) {
          model ||= chunk.model;
          if (chunk.usage) {
            usage.promptTokens = chunk.usage.prompt_tokens;
            usage.completionTokens = chunk.usage.completion_tokens;
            Object.assign(usage, cached(chunk.usage));
          }
          // llama.cpp sends its timings with the last chunk.
          timings = readTimings((chunk as { timings?: unknown }).timings).timings ?? timings;
          const choice = chunk.choices[0];
          if (!choice) continue;
          const delta = choice.delta as OpenAI.ChatCompletionChunk.Choice.Delta & LlamaDeltaExtras;
          if (delta.reasoning_content) think(delta.reasoning_content);
          if (delta.content) answer(inline.push(delta.content));
          for (const part of delta.tool_calls ?? []) {
            const existing = calls.get(part.index);
            if (existing) {
              existing.arguments += part.function?.arguments ?? '';
              if (part.function?.name && !existing.name) existing.name = part.function.name;
            } else {
              calls.set(part.index, {
                id: part.id ?? '',
                name: part.function?.name ?? '',
                arguments: part.function?.arguments ?? '',
              });
            }
          }
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      } catch (err) {
        // Once the stream has begun, a lost connection is a broken stream, not a dead server;
        // an error the server sent as an SSE line is still its own error.
        if (err instanceof APIError && !(err instanceof APIConnectionError)) throw err;
        if (opts.signal?.aborted) throw err;
        const deadline = missedDeadline(err);
        throw new HearthError(
          'model_stream_broken',
          `The model's reply stopped before it was finished (${deadline ? `the server ${deadline}` : (err as Error).message}).`,
        );
      }
      if (!finish) {
        throw new HearthError('model_stream_broken', "The model's reply stopped before it was finished.");
      }
      answer(inline.flush());
      return {
        content,
        reasoning,
        toolCalls: [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c),
        finishReason: normaliseFinish(finish),
        usage,
        tokenProbs: null,
        model,
        ...(timings ? { timings } : {}),
      };
    } catch (err) {
      if (opts.signal?.aborted) throw new HearthError('cancelled', 'The model call was stopped.');
      throw mapModelError(err, baseURL);
    }
  }

  async function health(): Promise<ModelHealth> {
    const timeout = options.healthTimeoutMs ?? 3000;
    const result: ModelHealth = { url: baseURL, reachable: false };
    try {
      const headers: Record<string, string> = options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {};
      const res = await f(`${baseURL}/models`, { signal: AbortSignal.timeout(timeout), headers });
      if (!res.ok) {
        result.error = `GET /models answered ${res.status}`;
        result.answeredStatus = res.status;
        return result;
      }
      const models = (await res.json()) as { data?: { id?: string; meta?: { n_ctx?: number } }[] };
      result.reachable = true;
      result.id = options.model ?? models.data?.[0]?.id;
      result.models = (models.data ?? []).flatMap((m) => (typeof m?.id === 'string' && m.id ? [m.id] : []));
      modelName ??= models.data?.[0]?.id;
      result.contextSize = models.data?.[0]?.meta?.n_ctx;
    } catch (err) {
      result.error = unreachableReason(err, `${baseURL}/models`, timeout);
      return result;
    }
    try {
      // /props sits beside /v1, not under it.
      const propsUrl = new URL('/props', baseURL.replace(/\/v1$/, '/')).toString();
      const res = await f(propsUrl, { signal: AbortSignal.timeout(timeout) });
      if (res.ok) {
        const props = (await res.json()) as {
          total_slots?: number;
          default_generation_settings?: { n_ctx?: number };
          modalities?: { vision?: boolean };
        };
        result.contextSize = props.default_generation_settings?.n_ctx ?? result.contextSize;
        if (typeof props.total_slots === 'number') result.slots = props.total_slots;
        result.vision = props.modalities?.vision === true;
      }
    } catch {
      // /props is optional (other OpenAI-compatible servers lack it).
    }
    return result;
  }

  return { chat, health };
}

function cached(usage: { prompt_tokens_details?: { cached_tokens?: number } | null } | null | undefined): { cachedTokens?: number } {
  const n = usage?.prompt_tokens_details?.cached_tokens;
  return typeof n === 'number' ? { cachedTokens: n } : {};
}

/** llama.cpp's timings object, read defensively (other servers send none). */
function readTimings(raw: unknown): { timings?: ServerTimings } {
  if (!raw || typeof raw !== 'object') return {};
  const t = raw as Record<string, unknown>;
  const num = (k: string) => (typeof t[k] === 'number' && Number.isFinite(t[k]) ? (t[k] as number) : undefined);
  const timings: ServerTimings = {
    promptTokens: num('prompt_n'),
    promptMs: num('prompt_ms'),
    predictedTokens: num('predicted_n'),
    predictedMs: num('predicted_ms'),
    predictedPerSecond: num('predicted_per_second'),
    promptPerSecond: num('prompt_per_second'),
    cachedTokens: num('cache_n'),
  };
  return Object.values(timings).some((v) => v !== undefined) ? { timings } : {};
}

function normaliseFinish(reason: string | null | undefined): ChatResult['finishReason'] {
  return reason === 'stop' || reason === 'length' || reason === 'tool_calls' ? reason : 'unknown';
}
