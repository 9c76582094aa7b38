import type { ModelView, ModelsReport } from '@/lib/contract/responses';
import { unreachableReason } from './client';

/**
 * Every model the model servers offer, and what is known of each, for GET /api/models. A
 * server runs one model (llama-server as most start it: its /props says everything) or many
 * (router mode, `--models-dir` or `--models-preset`: its /props says `role: "router"`, its
 * /v1/models gives each model's load state, and a running model's own /props is read with
 * `?model=…&autoload=false`, so that listing never loads a model), or llama-swap's (no /props;
 * /v1/models says `owned_by: "llama-swap"`, each model "loaded" or "unloaded" with what its
 * config declares, and GET /running tells a starting one from a ready one). A model offered by
 * several servers is one entry naming them all.
 */

type Fetch = typeof fetch;

type ServerModels = { url: string; models: ModelView[] } | { url: string; error: string };

type Props = {
  role?: string;
  default_generation_settings?: { n_ctx?: number };
  modalities?: { vision?: boolean };
  chat_template?: string;
  chat_template_caps?: { supports_tool_calls?: boolean };
};

type ListedModel = {
  id?: unknown;
  owned_by?: unknown;
  capabilities?: { vision?: unknown; function_calling?: unknown };
  meta?: { n_ctx?: unknown };
  status?: { value?: unknown; failed?: unknown };
  architecture?: { input_modalities?: unknown };
};

/** A chat template that reads `enable_thinking`, or opens a `<think>` block, belongs to a thinking model (Qwen3, QwQ, the R1 distills). */
const thinks = (template: string | undefined) =>
  template === undefined ? null : /enable_thinking|<think>|reasoning_content|<\|channel\|>/.test(template);

/** A model as its list entry gave it, with what its /props tells where that says something. */
function withProps(model: ModelView, props: Props): ModelView {
  const n = props.default_generation_settings?.n_ctx;
  return {
    ...model,
    contextSize: typeof n === 'number' && n > 0 ? n : model.contextSize,
    vision: typeof props.modalities?.vision === 'boolean' ? props.modalities.vision : model.vision,
    toolCalls:
      typeof props.chat_template_caps?.supports_tool_calls === 'boolean' ? props.chat_template_caps.supports_tool_calls : model.toolCalls,
    thinking: thinks(props.chat_template) ?? model.thinking,
  };
}

const STATES = new Set(['loaded', 'loading', 'unloaded', 'sleeping', 'downloading', 'downloaded']);

/** A router's load state of a listed model (server-models.cpp): a sleeping model wakes at once, a failed load says so. */
function routerState(m: ListedModel): NonNullable<ModelView['state']> {
  const value = typeof m.status?.value === 'string' && STATES.has(m.status.value) ? m.status.value : null;
  if (m.status?.failed === true) return 'failed';
  if (value === 'sleeping') return 'loaded';
  return value === 'loaded' || value === 'loading' ? value : 'unloaded';
}

/** llama-swap's: "loaded" covers a starting process, which its GET /running tells apart. */
const swapState = (m: ListedModel & { id: string }, starting: ReadonlySet<string>): NonNullable<ModelView['state']> =>
  starting.has(m.id) ? 'loading' : m.status?.value === 'loaded' ? 'loaded' : 'unloaded';

const getter =
  (opts: { fetch: Fetch; apiKey?: string; timeoutMs: number }) =>
  async <T>(address: string): Promise<T | null> => {
    const headers: Record<string, string> = opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : {};
    const res = await opts.fetch(address, { headers, signal: AbortSignal.timeout(opts.timeoutMs) });
    return res.ok ? ((await res.json()) as T) : null;
  };

/** llama-swap's models that are starting (GET /running beside /v1). */
async function startingSwap(get: ReturnType<typeof getter>, url: string): Promise<Set<string>> {
  const running = await get<{ running?: { model?: unknown; state?: unknown }[] }>(
    new URL('/running', url.replace(/\/v1$/, '/')).toString(),
  ).catch(() => null);
  return new Set((running?.running ?? []).flatMap((r) => (typeof r?.model === 'string' && r.state === 'starting' ? [r.model] : [])));
}

/**
 * Whether a server behind a router or llama-swap has the model running, from its /v1/models
 * (and llama-swap's /running): asked before a turn's first call, so a cold model's load is
 * shown as loading. Null: the server does not say (it runs one model), or did not answer.
 */
export async function modelLoadState(
  url: string,
  id: string,
  opts: { fetch?: Fetch; apiKey?: string; timeoutMs?: number } = {},
): Promise<ModelView['state']> {
  const get = getter({ fetch: opts.fetch ?? fetch, apiKey: opts.apiKey, timeoutMs: opts.timeoutMs ?? 3000 });
  const body = await get<{ data?: unknown }>(`${url}/models`).catch(() => null);
  const listed = Array.isArray(body?.data) ? (body.data as ListedModel[]) : [];
  const m = listed.find((x): x is ListedModel & { id: string } => x?.id === id);
  if (!m) return null;
  if (m.owned_by === 'llama-swap') return swapState(m, await startingSwap(get, url));
  return m.status && typeof m.status === 'object' ? routerState(m) : null;
}

async function serverModels(url: string, opts: { fetch: Fetch; apiKey?: string; timeoutMs: number }): Promise<ServerModels> {
  const get = getter(opts);
  let listed: ListedModel[];
  try {
    const body = await get<{ data?: unknown }>(`${url}/models`);
    if (!body) return { url, error: `GET ${url}/models did not answer with the model list` };
    listed = Array.isArray(body.data) ? (body.data as ListedModel[]) : [];
  } catch (err) {
    return { url, error: unreachableReason(err, `${url}/models`, opts.timeoutMs) };
  }
  // /props sits beside /v1, not under it; other OpenAI-compatible servers have none.
  const propsUrl = new URL('/props', url.replace(/\/v1$/, '/')).toString();
  const props = await get<Props>(propsUrl).catch(() => null);
  const router = props?.role === 'router';
  const swap = listed.some((m) => m?.owned_by === 'llama-swap');
  const starting = swap ? await startingSwap(get, url) : new Set<string>();
  const models = await Promise.all(
    listed
      .filter((m): m is ListedModel & { id: string } => typeof m?.id === 'string' && m.id.length > 0 && m.id.length <= 500)
      .map(async (m): Promise<ModelView> => {
        const n = m.meta?.n_ctx;
        const modalities = m.architecture?.input_modalities;
        const base: ModelView = {
          id: m.id,
          servers: [url],
          state: null,
          contextSize: typeof n === 'number' && n > 0 ? n : null,
          vision: Array.isArray(modalities)
            ? modalities.includes('image')
            : typeof m.capabilities?.vision === 'boolean'
              ? m.capabilities.vision
              : null,
          toolCalls: typeof m.capabilities?.function_calling === 'boolean' ? m.capabilities.function_calling : null,
          thinking: null,
        };
        if (swap) return { ...base, state: swapState(m, starting) };
        if (!router) return props ? withProps(base, props) : base;
        const state = routerState(m);
        if (state !== 'loaded') return { ...base, state };
        const own = await get<Props>(`${propsUrl}?model=${encodeURIComponent(m.id)}&autoload=false`).catch(() => null);
        return own ? withProps({ ...base, state }, own) : { ...base, state };
      }),
  );
  return { url, models };
}

const RANK: Record<NonNullable<ModelView['state']>, number> = { loaded: 3, loading: 2, unloaded: 1, failed: 0 };

/** Every server's models, merged by id: the best state any server has it in, and the facts the first server that knows them gives. */
export async function listModels(
  urls: string[],
  opts: { fetch?: Fetch; apiKey?: string | ((url: string) => string | undefined); timeoutMs?: number } = {},
): Promise<ModelsReport> {
  const keyOf = (url: string) => (typeof opts.apiKey === 'function' ? opts.apiKey(url) : opts.apiKey);
  const answers = await Promise.all(
    urls.map((url) => serverModels(url, { fetch: opts.fetch ?? fetch, apiKey: keyOf(url), timeoutMs: opts.timeoutMs ?? 3000 })),
  );
  const byId = new Map<string, ModelView>();
  for (const answer of answers) {
    if (!('models' in answer)) continue;
    for (const m of answer.models) {
      const seen = byId.get(m.id);
      if (!seen) {
        byId.set(m.id, m);
        continue;
      }
      seen.servers.push(...m.servers);
      if (m.state !== null && (seen.state === null || RANK[m.state] > RANK[seen.state])) seen.state = m.state;
      for (const key of ['contextSize', 'vision', 'toolCalls', 'thinking'] as const) {
        if (seen[key] === null) (seen as Record<typeof key, unknown>)[key] = m[key];
      }
    }
  }
  return {
    models: [...byId.values()],
    unreachable: answers.flatMap((a) => ('error' in a ? [{ url: a.url, error: a.error }] : [])),
  };
}
