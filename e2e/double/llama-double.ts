import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { persona } from './persona';
import { promptTokens, renderAnswer, renderPrompt, SlotPool, thinkingBlock, type SlotLease } from './slots';
import { RouterState, type RouterOptions } from './router';
import { answerEmbeddings, type EmbeddingsOptions } from './embeddings';
import { speechDouble, type Heard, type SpeechDoubleOptions, type Spoken } from './speech';

/**
 * A scripted stand-in for llama-server that speaks its wire format as captured from a real
 * server in e2e/double/samples (notes in e2e/double/llama-server.md): the same response and
 * chunk shapes, the same 4xx/5xx error bodies for the same bad requests, grammar-aware
 * probabilities (post_sampling_probs) for JSON schema answers, tool-call deltas, pings, and failure modes (dead mid-stream, slow, errors
 * after streaming began). Tests give it a script; without one it plays `persona`, a
 * deterministic small model used by the browser tests and `npm run dev:fake`.
 */

export type DoubleRequest = {
  body: Record<string, unknown>;
  authorization?: string;
  messages: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string; reasoning_content?: unknown }[];
  tools: { function: { name: string; description?: string; parameters?: unknown } }[];
  toolChoice: string | undefined;
  stream: boolean;
  /** The JSON schema of response_format / json_schema, if any. */
  schema: Record<string, unknown> | null;
  /** Once a slot took the request: which one, and how much of the prompt its cache held. */
  cache?: { slot: number; cached: number; promptTokens: number };
  /** Once answered: ms from taking the slot to the answer's last byte. */
  servedMs?: number;
};

export type DoubleReply = {
  content?: string;
  reasoning?: string;
  toolCalls?: { name: string; arguments: string | Record<string, unknown> }[];
  finishReason?: 'stop' | 'length' | 'tool_calls';
  /** Answer with this HTTP error body before any byte of a stream. */
  error?: { status: number; type: string; message: string; extra?: Record<string, unknown> };
  /** Streamed replies: send this error as an SSE data line after the content, with no [DONE]. */
  errorAfterContent?: { code: number; type: string; message: string };
  /** Streamed replies: close the connection after this many content tokens (no finish, no [DONE]). */
  dropAfterTokens?: number;
  delayMs?: number;
  tokenDelayMs?: number;
  /**
   * After `afterTokens` content tokens (streamed), or before the whole answer (not streamed),
   * wait until `until` settles before going on. Tests hold a turn mid-answer this way (busy thread, cancel, live replay)
   * without racing the clock.
   */
  hold?: { afterTokens: number; until: Promise<unknown> };
  /**
   * Grammar-aware probabilities at the position where the value of `key` starts, by value.
   * Used when the request asks for post_sampling_probs.
   */
  probs?: { key: string; values: Record<string, number> };
};

export type DoubleScript = (req: DoubleRequest, callIndex: number) => DoubleReply | Promise<DoubleReply>;

export type LlamaDoubleOptions = {
  script?: DoubleScript;
  modelId?: string;
  nCtx?: number;
  slots?: number;
  /** Answer /health and every API call with 503 "Loading model". */
  loading?: boolean;
  /** Started with --no-jinja: tools and tool_choice give 500, as the real server does. */
  jinja?: boolean;
  /** Started with --metrics: GET /metrics answers (otherwise 501, as the real server does). */
  metrics?: boolean;
  /** The host-memory prompt cache (`--cache-ram`) in tokens; 0 is `--cache-ram 0`. On by default, as on the server. */
  cacheRamTokens?: number;
  /**
   * A thinking model (Qwen3's template): every reply is thought out first, streamed as
   * `reasoning_content` before the content or the tool call, unless the request turns thinking
   * off (`chat_template_kwargs.enable_thinking: false` or `reasoning_effort: "none"`).
   */
  thinking?: boolean;
  /** `--reasoning-format`: "auto" (the default) parses thinking out; "none" leaves it inline, between <think> and </think>. */
  reasoningFormat?: 'auto' | 'none';
  /**
   * Started with a vision projector (`--mmproj`, or `-hf` with a vision model): /props says
   * `modalities.vision: true` and image_url parts are taken. Without, they give 500, as the
   * real server does (tools/server/server-common.cpp, oaicompat_chat_params_parse).
   */
  vision?: boolean;
  /** Router mode (router.ts): several models behind one server, loaded when a request names them. */
  router?: RouterOptions;
  /** Started with --embeddings (embeddings.ts): POST /v1/embeddings answers with vectors of these dimensions. */
  embeddings?: EmbeddingsOptions;
  /** Speech servers too (speech.ts): POST /v1/audio/transcriptions and /v1/audio/speech answer. */
  speech?: SpeechDoubleOptions;
};

export type LlamaDouble = {
  url: string;
  baseUrl: string;
  port: number;
  requests: DoubleRequest[];
  /** The slots and their prompt cache (see slots.ts). */
  slots: SlotPool;
  /** Router mode's models and their state, when started with `router`. */
  router?: RouterState;
  /** Every text sent to /v1/embeddings, one list per request (a test sees the batches). */
  embedded: string[][];
  /** What reached the speech endpoints, when started with `speech`. */
  heard: Heard[];
  spoken: Spoken[];
  setScript(script: DoubleScript | undefined): void;
  close(): Promise<void>;
};

const FINGERPRINT = 'b1-de3ff81';

/** The part of a thinking model's template (Qwen3's) that tells its kind: it reads `enable_thinking`. */
const THINKING_TEMPLATE =
  "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}";

/** A model's `meta` in GET /v1/models (the GGUF's facts, as the server reads them). */
const modelMeta = (nCtx: number) => ({
  vocab_type: 2,
  n_vocab: 151936,
  n_ctx: nCtx,
  n_ctx_train: 32768,
  n_embd: 64,
  n_params: 19521856,
  size: 39044352,
  ftype: 'F16',
});

function alnum(n: number): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(n);
  return Array.from(bytes, (b) => chars[b % chars.length]).join('');
}

/** Splits text the way a tokenizer roughly would: words with their leading space. */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? (text ? [text] : []);
}

function errorBody(status: number, type: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: { code: status, message, type, ...extra } };
}

/** Content parts as the server checks them (server-common.cpp: content parts and handle_media). */
function contentProblem(content: unknown, vision: boolean): DoubleReply['error'] | null {
  const bad = (message: string) => ({ status: 400, type: 'invalid_request_error', message });
  if (typeof content === 'string' || content === null) return null;
  if (!Array.isArray(content)) return bad("Expected 'content' to be a string or an array");
  for (const part of content as Record<string, unknown>[]) {
    const type = typeof part?.type === 'string' ? part.type : '';
    if (type === 'text') continue;
    if (type === 'image_url') {
      if (!vision)
        return {
          status: 500,
          type: 'server_error',
          message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
        };
      const url = String((part.image_url as { url?: unknown } | undefined)?.url ?? '');
      if (url.startsWith('http')) return { status: 500, type: 'server_error', message: 'Failed to download image' };
      if (url.startsWith('data:')) {
        const [head, data, ...rest] = url.split(',');
        if (data === undefined || rest.length) return bad('Invalid uri-encoded base64 value');
        if (!/^data:(image|video|audio)\//.test(head)) return bad(`Invalid uri format: ${head}`);
        if (!head.endsWith('base64')) return bad('uri must be base64 encoded');
      } else if (url.startsWith('file://')) {
        return bad('file:// URLs are not allowed unless --media-path is specified');
      } else if (Buffer.from(url, 'base64').length === 0) {
        return { status: 500, type: 'server_error', message: 'Invalid base64 value' };
      }
      continue;
    }
    if (type === 'input_audio')
      return {
        status: 500,
        type: 'server_error',
        message: 'audio input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
      };
    return bad('unsupported content[].type');
  }
  return null;
}

/** The request checks a real llama-server makes before it starts a reply (llama-server.md §3). */
function validate(
  body: Record<string, unknown>,
  nCtx: number,
  jinja: boolean,
  need: () => number,
  vision = false,
): DoubleReply['error'] | null {
  const bad = (message: string) => ({ status: 400, type: 'invalid_request_error', message });
  if (!Array.isArray(body.messages)) return bad("'messages' is required");
  for (const m of body.messages as Record<string, unknown>[]) {
    if (m.role !== 'assistant' && m.content === undefined) return bad("'content' is required");
    if (m.role === 'assistant' && m.content === undefined && m.tool_calls === undefined) return bad("Expected 'content' or 'tool_calls'");
    const parts = contentProblem(m.content, vision);
    if (parts) return parts;
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  if (!jinja && tools.length > 0) return { status: 500, type: 'server_error', message: 'tools param requires --jinja flag' };
  if (!jinja && body.tool_choice !== undefined && body.tool_choice !== 'auto')
    return { status: 500, type: 'server_error', message: 'tool_choice param requires --jinja flag' };
  if (typeof body.grammar === 'string' && !grammarParses(body.grammar))
    return bad('Failed to initialize samplers: failed to parse grammar');
  if (body.top_logprobs !== undefined && body.logprobs !== true) return bad('top_logprobs requires logprobs to be set to true');
  if (body.logprobs === true && tools.length > 0 && body.stream === true) return bad('logprobs is not supported with tools + stream');
  if (body.grammar !== undefined && tools.length > 0) return bad('Cannot use custom grammar constraints with tools.');
  if (body.grammar !== undefined && (body.json_schema !== undefined || body.response_format !== undefined))
    return { status: 500, type: 'server_error', message: 'Cannot use both json_schema and grammar' };
  if (typeof body.tool_choice === 'string' && !['auto', 'none', 'required'].includes(body.tool_choice))
    return bad(`Invalid tool_choice: ${body.tool_choice}`);
  // server-common.cpp: the kwarg must be a boolean; reasoning_format one the server knows (common/chat.cpp).
  const kwargs = body.chat_template_kwargs as Record<string, unknown> | undefined;
  if (kwargs && kwargs.enable_thinking !== undefined && typeof kwargs.enable_thinking !== 'boolean')
    return bad('invalid type for "enable_thinking" (expected boolean, got string)');
  if (body.reasoning_format !== undefined && !['none', 'auto', 'deepseek', 'deepseek-legacy'].includes(String(body.reasoning_format)))
    return { status: 500, type: 'server_error', message: `Unknown reasoning format: ${String(body.reasoning_format)}` };
  const rf = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  if (rf && !['text', 'json_object', 'json_schema'].includes(rf.type ?? ''))
    return bad(`response_format type must be one of "text" or "json_object", but got: ${rf.type}`);
  const schema = (rf?.type === 'json_schema' ? rf.json_schema?.schema : undefined) ?? body.json_schema;
  if (schema !== undefined) {
    const problem = schemaProblem(schema, schema);
    if (problem) {
      return bad(`Unable to generate parser for this template. Automatic parser generation failed: JSON schema error at #: ${problem}`);
    }
  }
  if (need() > nCtx) {
    return {
      status: 400,
      type: 'exceed_context_size_error',
      message: `request (${need()} tokens) exceeds the available context size (${nCtx} tokens), try increasing it`,
      extra: { n_prompt_tokens: need(), n_ctx: nCtx },
    };
  }
  return null;
}

const knownTypes = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** A rough GBNF check: rules of the form `name ::= …` with balanced brackets. */
function grammarParses(grammar: string): boolean {
  if (!/^\s*[\w-]+\s*::=/m.test(grammar)) return false;
  let depth = 0;
  for (const c of grammar.replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, '')) {
    if (c === '(') depth++;
    if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

function resolveRef(root: unknown, ref: string): unknown {
  let node: unknown = root;
  for (const part of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

function schemaProblem(schema: unknown, root: unknown): string | null {
  if (typeof schema !== 'object' || schema === null) return 'schema must be an object';
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string' && s.$ref.startsWith('#') && resolveRef(root, s.$ref) === undefined) {
    return `cannot resolve $ref ${s.$ref}, $defs not found`;
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) if (typeof t !== 'string' || !knownTypes.has(t)) return `unrecognized type ${String(t)}`;
  }
  if (s.enum !== undefined && (!Array.isArray(s.enum) || s.enum.length === 0)) return 'enum must be a non-empty array';
  if (typeof s.$ref === 'string' && !s.$ref.startsWith('#')) return 'only references into the same document are supported';
  if (s.properties !== undefined) {
    if (typeof s.properties !== 'object' || s.properties === null) return 'properties must be an object';
    for (const sub of Object.values(s.properties)) {
      const p = schemaProblem(sub, root);
      if (p) return p;
    }
  }
  if (s.items !== undefined && !Array.isArray(s.items)) return schemaProblem(s.items, root);
  return null;
}

function parseRequest(body: Record<string, unknown>): DoubleRequest {
  const rf = body.response_format as { type?: string; json_schema?: { schema?: unknown }; schema?: unknown } | undefined;
  const schema =
    (rf?.type === 'json_schema' ? rf.json_schema?.schema : rf?.type === 'json_object' ? rf.schema : undefined) ?? body.json_schema;
  return {
    body,
    messages: (body.messages as DoubleRequest['messages']) ?? [],
    tools: Array.isArray(body.tools) ? (body.tools as DoubleRequest['tools']) : [],
    toolChoice: typeof body.tool_choice === 'string' ? body.tool_choice : undefined,
    stream: body.stream === true,
    schema: schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : null,
  };
}

type PreEntry = {
  id: number;
  token: string;
  bytes: number[];
  logprob: number;
  top_logprobs: { id: number; token: string; bytes: number[]; logprob: number }[];
};

/** Default (pre-sampling) logprobs: the raw softmax, ignoring the grammar (sample 30). */
function preSamplingEntry(token: string): PreEntry {
  const mk = (t: string, lp: number) => ({
    id: 1000 + ((t.length * 31 + (t.charCodeAt(0) || 0)) % 90000),
    token: t,
    bytes: [...Buffer.from(t)],
    logprob: lp,
  });
  return { ...mk(token, -0.1), top_logprobs: [mk(token, -0.1), mk(' server', -2.5)] };
}

type TokenEntry = {
  id: number;
  token: string;
  bytes: number[];
  prob: number;
  top_probs: { id: number; token: string; bytes: number[]; prob: number }[];
};

function entry(token: string, prob: number, top: { token: string; prob: number }[]): TokenEntry {
  const mk = (t: string, p: number) => ({
    id: 1000 + ((t.length * 31 + t.charCodeAt(0)) % 90000),
    token: t,
    bytes: [...Buffer.from(t)],
    prob: p,
  });
  return { ...mk(token, prob), top_probs: top.map((t) => mk(t.token, t.prob)) };
}

/**
 * Grammar-aware token probabilities for a JSON answer, in the shape of sample 31: certain
 * tokens for the structure, and at the start of `probs.key`'s value a spread over the values'
 * first tokens (split like a real tokenizer might: "ans" + "wered").
 */
function postSamplingProbs(content: string, probs: DoubleReply['probs']): TokenEntry[] {
  const split = (text: string) => tokenize(text).flatMap((t) => t.match(/[{}":,]|[^{}":,]+/g) ?? []);
  const certain = (text: string) => split(text).map((t) => entry(t, 1, [{ token: t, prob: 1 }]));
  const m = probs ? new RegExp(`"${probs.key}"\\s*:\\s*"?`).exec(content) : null;
  if (!probs || !m) return [...certain(content), entry('', 1, [{ token: '', prob: 1 }])];
  const valueStart = m.index + m[0].length;
  const top = Object.entries(probs.values)
    .map(([value, p]) => ({ value, token: value.slice(0, Math.max(1, Math.ceil(value.length / 2))), prob: p }))
    .sort((a, b) => b.prob - a.prob);
  const rest = content.slice(valueStart);
  const chosen = top.find((c) => rest.startsWith(c.value)) ?? top[0];
  return [
    ...certain(content.slice(0, valueStart)),
    entry(
      chosen.token,
      chosen.prob,
      top.map(({ token, prob }) => ({ token, prob })),
    ),
    ...certain(rest.startsWith(chosen.token) ? rest.slice(chosen.token.length) : rest),
    entry('', 1, [{ token: '', prob: 1 }]),
  ];
}

export async function startLlamaDouble(options: LlamaDoubleOptions = {}, port = 0, host = '127.0.0.1'): Promise<LlamaDouble> {
  const modelId = options.modelId ?? 'tiny-toy';
  const speech = options.speech ? speechDouble(options.speech) : undefined;
  const nCtx = options.nCtx ?? 16384;
  const router = options.router ? new RouterState(options.router) : undefined;
  const slots = options.slots ?? 1;
  let script: DoubleScript | undefined = options.script;
  const requests: DoubleRequest[] = [];
  const embedded: string[][] = [];
  const pool = new SlotPool(slots, undefined, options.cacheRamTokens);
  let calls = 0;
  const sockets = new Set<import('node:net').Socket>();

  const sendJson = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };

  /** GET /props of one model (the server's, or a router child's). */
  const props = (m: { id: string; nCtx: number; vision: boolean; thinking: boolean }) => ({
    default_generation_settings: {
      id: 0,
      n_ctx: m.nCtx,
      speculative: false,
      is_processing: false,
      params: { temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, n_predict: -1 },
    },
    total_slots: slots,
    model_alias: m.id,
    model_path: '/models/redacted.gguf',
    modalities: { vision: m.vision, video: false, audio: false },
    endpoint_slots: true,
    endpoint_props: false,
    endpoint_metrics: options.metrics === true,
    webui: true,
    chat_template: m.thinking ? THINKING_TEMPLATE : '{{ messages }}',
    chat_template_caps: { supports_tool_calls: true, supports_parallel_tool_calls: true, supports_system_role: true },
    bos_token: '',
    eos_token: '<|im_end|>',
    build_info: FINGERPRINT,
    is_sleeping: false,
  });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const route = url.pathname.replace(/^\/v1(?=\/)/, '');
    try {
      if (options.loading && route !== '/__requests') {
        return sendJson(res, 503, errorBody(503, 'unavailable_error', 'Loading model'));
      }
      if (req.method === 'GET' && route === '/health') return sendJson(res, 200, { status: 'ok' });
      if (speech && (await speech.handle(route, req, res))) return;
      if (router?.flavour === 'llama-swap') {
        // llama-swap answers these itself and has no /props of its own (it proxies the rest to the model's server).
        if (req.method === 'GET' && route === '/models') return sendJson(res, 200, router.swapList());
        if (req.method === 'GET' && route === '/running') return sendJson(res, 200, router.running());
        if (req.method === 'GET' && route === '/props')
          return sendJson(res, 404, {
            src: 'llama-swap',
            error: { message: 'no model id could be identified', type: 'invalid_request_error', param: null, code: 'not_found' },
          });
      }
      if (req.method === 'GET' && route === '/models' && router)
        return sendJson(
          res,
          200,
          router.list((m) => modelMeta(m.nCtx ?? nCtx)),
        );
      if (req.method === 'GET' && route === '/props' && router) {
        const named = url.searchParams.get('model');
        if (!named) {
          return sendJson(res, 200, {
            role: 'router',
            max_instances: router.maxInstances,
            models_autoload: true,
            model_alias: 'llama-server',
            model_path: 'none',
            default_generation_settings: { params: {}, n_ctx: 0 },
            build_info: FINGERPRINT,
          });
        }
        const autoload = url.searchParams.get('autoload');
        const refused = await router.ready(named, autoload === null ? true : autoload === 'true' || autoload === '1');
        if (refused) return sendJson(res, refused.status, errorBody(refused.status, refused.type, refused.message));
        const m = router.model(named)!;
        return sendJson(res, 200, props({ id: m.id, nCtx: m.nCtx ?? nCtx, vision: m.vision === true, thinking: m.thinking === true }));
      }
      if (req.method === 'GET' && route === '/models') {
        const created = Math.floor(Date.now() / 1000);
        const meta = modelMeta(nCtx);
        return sendJson(res, 200, {
          models: [
            {
              name: modelId,
              model: modelId,
              modified_at: '',
              size: '',
              digest: '',
              type: 'model',
              description: '',
              tags: [''],
              capabilities: ['completion'],
              parameters: '',
              details: { parent_model: '', format: 'gguf', family: '', families: [''], parameter_size: '', quantization_level: '' },
            },
          ],
          object: 'list',
          data: [{ id: modelId, aliases: [modelId], tags: [], object: 'model', created, owned_by: 'llamacpp', meta }],
        });
      }
      if (req.method === 'GET' && route === '/props') {
        return sendJson(res, 200, props({ id: modelId, nCtx, vision: options.vision === true, thinking: options.thinking === true }));
      }
      if (req.method === 'GET' && route === '/slots') {
        return sendJson(
          res,
          200,
          Array.from({ length: slots }, (_, id) => ({ id, n_ctx: nCtx, speculative: false, is_processing: pool.busy(id) })),
        );
      }
      if (req.method === 'GET' && route === '/metrics') {
        if (!options.metrics) {
          return sendJson(
            res,
            501,
            errorBody(501, 'not_supported_error', 'This server does not support metrics endpoint. Start it with `--metrics`'),
          );
        }
        const text = pool.prometheus();
        res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4', 'Content-Length': Buffer.byteLength(text) });
        return res.end(text);
      }
      if (req.method === 'POST' && route === '/__speech' && speech) return speech.control(req, res);
      if (req.method === 'GET' && route === '/__speech')
        return sendJson(res, 200, { heard: speech?.heard ?? [], spoken: speech?.spoken ?? [] });
      if (req.method === 'GET' && route === '/__requests')
        return sendJson(
          res,
          200,
          requests.map((r) => r.body),
        );
      if (req.method === 'POST' && (route === '/embeddings' || route === '/embedding')) {
        let body: Record<string, unknown> | null = null;
        try {
          body = JSON.parse(await readBody(req)) as Record<string, unknown>;
        } catch {
          return sendJson(res, 500, errorBody(500, 'server_error', '[json.exception.parse_error.101] parse error'));
        }
        const answer = answerEmbeddings(body, options.embeddings, modelId);
        if (!answer.ok)
          return sendJson(res, answer.problem.status, errorBody(answer.problem.status, answer.problem.type, answer.problem.message));
        embedded.push(answer.inputs);
        return sendJson(res, 200, answer.body);
      }
      if (req.method === 'POST' && route === '/chat/completions') {
        const raw = await readBody(req);
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          return sendJson(res, 500, errorBody(500, 'server_error', '[json.exception.parse_error.101] parse error'));
        }
        if (router) {
          const refused = await router.ready(body.model);
          if (refused && router.flavour === 'llama-swap') {
            const code = refused.status === 404 ? 'not_found' : 'internal_error';
            return sendJson(res, refused.status, {
              src: 'llama-swap',
              error: { message: refused.message, type: refused.type, param: null, code },
            });
          }
          if (refused) return sendJson(res, refused.status, errorBody(refused.status, refused.type, refused.message));
        }
        const parsed = { ...parseRequest(body), authorization: req.headers.authorization };
        let tokens: string[] | undefined;
        const prompt = () =>
          (tokens ??= promptTokens(
            renderPrompt(parsed.messages, parsed.tools, { thinkingOff: options.thinking === true && !thinkingOn(body) }),
          ));
        const problem = validate(body, nCtx, options.jinja !== false, () => prompt().length, options.vision === true);
        requests.push(parsed);
        if (problem) return sendJson(res, problem.status, errorBody(problem.status, problem.type, problem.message, problem.extra));
        // Like the server's task queue: wait for a slot (the named one, or the best idle one).
        let left = false;
        res.on('close', () => (left = true));
        const lease = await pool.acquire({
          idSlot: typeof body.id_slot === 'number' ? body.id_slot : undefined,
          tokens: prompt(),
          cachePrompt: body.cache_prompt !== false,
          gone: () => left,
        });
        if (left) return lease.release();
        parsed.cache = { slot: lease.slot, cached: lease.cached, promptTokens: lease.promptTokens };
        try {
          const reply = thoughtOut(asServerSends(await (script ?? persona)(parsed, calls++), parsed), parsed, options);
          if (reply.error) {
            lease.release();
            if (reply.delayMs) await sleep(reply.delayMs);
            return sendJson(
              res,
              reply.error.status,
              errorBody(reply.error.status, reply.error.type, reply.error.message, reply.error.extra),
            );
          }
          pool.count(lease);
          return await respond(res, parsed, reply, lease);
        } catch (err) {
          lease.release();
          throw err;
        }
      }
      return sendJson(res, 404, errorBody(404, 'not_found_error', 'File Not Found'));
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, errorBody(500, 'server_error', (err as Error).message));
      else res.destroy();
    }
  });

  /** Answers on a slot; the slot keeps the prompt and, when the answer finished, the answer. */
  async function respond(res: http.ServerResponse, req: DoubleRequest, reply: DoubleReply, lease: SlotLease) {
    let answer: string[] = [];
    const t0 = performance.now();
    try {
      answer = (await answerOn(res, req, reply, lease)) ?? [];
    } finally {
      req.servedMs = performance.now() - t0;
      lease.release(answer);
    }
  }

  /** Writes the reply; returns the answer's tokens when it was written whole. */
  async function answerOn(
    res: http.ServerResponse,
    req: DoubleRequest,
    reply: DoubleReply,
    lease: SlotLease,
  ): Promise<string[] | undefined> {
    if (reply.delayMs) await sleep(reply.delayMs);
    const id = `chatcmpl-${alnum(32)}`;
    const created = Math.floor(Date.now() / 1000);
    const content = reply.content ?? '';
    const toolCalls = (reply.toolCalls ?? []).map((c) => ({
      id: alnum(32),
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    const finish = reply.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop');
    // What the slot holds after the answer: its thinking too, as the model wrote it.
    const answerTokens = [
      ...promptTokens(
        thinkingBlock(reply.reasoning ?? '') +
          renderAnswer(
            content,
            toolCalls.map((c) => ({ function: c })),
          ),
      ),
      '<|im_end|>',
    ];
    const completionTokens = answerTokens.length;
    const read = lease.promptTokens - lease.cached;
    const usage = {
      completion_tokens: completionTokens,
      prompt_tokens: lease.promptTokens,
      total_tokens: lease.promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: lease.cached },
    };
    // Speeds of the toy model on 2 CPU cores (llama-server.md §1): ~6,400 prompt tokens/s, ~370 generated tokens/s.
    const timings = {
      cache_n: lease.cached,
      prompt_n: read,
      prompt_ms: read * 0.156,
      prompt_per_token_ms: 0.156,
      prompt_per_second: 6410.3,
      predicted_n: completionTokens,
      predicted_ms: completionTokens * 2.73,
      predicted_per_token_ms: 2.73,
      predicted_per_second: 366.4,
    };
    const served = router ? String(req.body.model) : modelId;
    // A router model with a speed takes its time: the prompt first, then each token.
    const speed = router?.model(served)?.speed;
    const tokenWait = speed ? 1000 / speed.predictedPerSecond : 0;
    if (speed) await sleep((read / speed.promptPerSecond) * 1000 + (req.stream ? 0 : completionTokens * tokenWait));
    const base = { created, id, model: served, system_fingerprint: FINGERPRINT, object: 'chat.completion.chunk' };
    const wantProbs = req.body.logprobs === true && req.body.post_sampling_probs === true;
    const wantRawProbs = req.body.logprobs === true && !wantProbs;

    if (!req.stream) {
      if (reply.hold) {
        // Generating: a client that hangs up meanwhile frees the slot, as on the real server.
        let gone = false;
        await Promise.race([
          reply.hold.until.catch(() => undefined),
          new Promise((resolve) => res.once('close', () => resolve((gone = true)))),
        ]);
        if (gone || res.destroyed) return undefined;
      }
      const message: Record<string, unknown> = { role: 'assistant', content: toolCalls.length ? '' : content };
      if (reply.reasoning) message.reasoning_content = reply.reasoning;
      if (toolCalls.length) {
        message.tool_calls = toolCalls.map((c) => ({ type: 'function', function: { name: c.name, arguments: c.arguments }, id: c.id }));
      }
      const choice: Record<string, unknown> = { finish_reason: finish, index: 0, message };
      if (wantProbs) choice.logprobs = { content: postSamplingProbs(content, reply.probs) };
      if (wantRawProbs) choice.logprobs = { content: [...tokenize(content).map(preSamplingEntry), preSamplingEntry('')] };
      sendJson(res, 200, {
        choices: [choice],
        created,
        model: served,
        system_fingerprint: FINGERPRINT,
        object: 'chat.completion',
        usage,
        id,
        timings,
      });
      return answerTokens;
    }

    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) =>
      send({ choices: [{ finish_reason: finishReason, index: 0, delta }], ...base, ...extra });
    let closed = false;
    res.on('close', () => (closed = true));
    chunk({ role: 'assistant', content: null });
    res.write(':\n\n'); // a ping comment, as llama-server sends during silence
    let n = 0;
    if (reply.reasoning) {
      for (const t of tokenize(reply.reasoning)) {
        if (closed) return;
        if (reply.tokenDelayMs || tokenWait) await sleep((reply.tokenDelayMs ?? 0) + tokenWait);
        chunk({ reasoning_content: t });
      }
    }
    for (const t of tokenize(content)) {
      if (closed) return;
      if (reply.dropAfterTokens !== undefined && n >= reply.dropAfterTokens) return void (await dropConnection(res));
      if (reply.hold && n === reply.hold.afterTokens) {
        await new Promise<void>((resolve) => res.write('', () => resolve()));
        // A client that hangs up frees the slot at once, as on the real server.
        await Promise.race([
          reply.hold.until.catch(() => undefined),
          new Promise((resolve) => (closed ? resolve(null) : res.once('close', resolve))),
        ]);
        if (closed) return;
      }
      if (reply.tokenDelayMs || tokenWait) await sleep((reply.tokenDelayMs ?? 0) + tokenWait);
      if (wantRawProbs)
        send({
          choices: [{ finish_reason: null, index: 0, delta: { content: t }, logprobs: { content: [preSamplingEntry(t)] } }],
          ...base,
        });
      else chunk({ content: t });
      n++;
    }
    if (reply.dropAfterTokens !== undefined) return void (await dropConnection(res));
    if (reply.errorAfterContent) {
      send({ error: reply.errorAfterContent });
      res.end();
      return;
    }
    toolCalls.forEach((c, index) => {
      const frags = c.arguments.match(/.{1,3}/gs) ?? [''];
      chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: frags[0] } }] });
      for (const f of frags.slice(1)) chunk({ tool_calls: [{ index, function: { arguments: f } }] });
    });
    const includeUsage = (req.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    if (includeUsage) {
      chunk({}, finish);
      send({ choices: [], ...base, usage, timings });
    } else {
      chunk({}, finish, { timings });
    }
    res.write('data: [DONE]\n\n');
    res.end();
    return answerTokens;
  }

  // Idle keep-alive connections stay open until close() (which destroys them): with Node's 5 s
  // timeout, a test's next request could go out on a connection the double was closing at that
  // moment and fail with ECONNRESET (seen in a browser test that polls /__speech).
  server.keepAliveTimeout = 0;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const actualPort = (server.address() as AddressInfo).port;
  const baseUrl = `http://${host}:${actualPort}`;
  return {
    url: `${baseUrl}/v1`,
    baseUrl,
    port: actualPort,
    requests,
    slots: pool,
    router,
    embedded,
    heard: speech?.heard ?? [],
    spoken: speech?.spoken ?? [],
    setScript(s) {
      script = s;
      calls = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * With tool_choice "none" the server's parser extracts no tool calls: a model that writes one
 * anyway (small models that see tools in the prompt do) sends it as text markup.
 */
function asServerSends(reply: DoubleReply, req: DoubleRequest): DoubleReply {
  if (req.toolChoice !== 'none' || !reply.toolCalls?.length) return reply;
  const markup = renderAnswer(
    reply.content ?? '',
    reply.toolCalls.map((c) => ({
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    })),
  );
  return { ...reply, content: markup, toolCalls: undefined, finishReason: 'stop' };
}

/** Whether a request leaves thinking on (server-common.cpp: the kwarg, or reasoning_effort "none"). */
export function thinkingOn(body: Record<string, unknown>): boolean {
  const kwargs = body.chat_template_kwargs as Record<string, unknown> | undefined;
  return kwargs?.enable_thinking !== false && body.reasoning_effort !== 'none';
}

/** What a thinking model thinks before a reply (a script may give its own `reasoning`). */
function thoughtFor(req: DoubleRequest, reply: DoubleReply): string {
  const question = [...req.messages].reverse().find((m) => m.role === 'user');
  const asked = typeof question?.content === 'string' ? question.content.slice(0, 80) : 'something';
  if (reply.toolCalls?.length)
    return `The user asks: "${asked}". I cannot know this from memory, so I will call ${reply.toolCalls[0].name}.`;
  return `The user asks: "${asked}". I have what I need, so I will answer plainly.`;
}

/**
 * A reply as a thinking model writes it: thinking first (parsed out as reasoning_content, or
 * inline for reasoning_format "none"), none when the request turns it off. An error has none.
 */
function thoughtOut(reply: DoubleReply, req: DoubleRequest, options: LlamaDoubleOptions): DoubleReply {
  if (reply.error) return reply;
  const on = thinkingOn(req.body);
  const reasoning = !on ? undefined : (reply.reasoning ?? (options.thinking ? thoughtFor(req, reply) : undefined));
  const format = typeof req.body.reasoning_format === 'string' ? req.body.reasoning_format : (options.reasoningFormat ?? 'auto');
  if (reasoning && format === 'none')
    return { ...reply, reasoning: undefined, content: `<think>\n${reasoning}\n</think>\n\n${reply.content ?? ''}` };
  return { ...reply, reasoning };
}

/** Dies like a crashed server: what was written reaches the client, then the socket is cut. */
async function dropConnection(res: http.ServerResponse) {
  await new Promise<void>((resolve) => res.write('', () => resolve()));
  await sleep(20);
  res.destroy();
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}
