/**
 * llama-server's router mode (`--models-dir` / `--models-preset`; v0.5.0
 * tools/server/server-models.cpp) as the double plays it: several models, each `unloaded`
 * until a request names it, then `loading` while the router starts a child for it, then
 * `loaded`. What the router answers:
 *  - GET /v1/models: every model, `status: {value, args}` (plus `failed` and `exit_code` after a
 *    load that fell over), `architecture.input_modalities`, and the child's own fields (its
 *    `meta`) while it runs;
 *  - GET /props: `{role: "router", max_instances, models_autoload, …}`; with `?model=` it is
 *    the child's /props, loading the model first unless `autoload=false`, which answers 400
 *    "model is not loaded" for one that is not running;
 *  - POST with a `model`: none is 400 "model name is missing from the request", an unknown one
 *    400 "model 'x' not found"; an unloaded one is loaded first (the request waits), and a load
 *    that fails is 500 "model name=x failed to load".
 * At most `maxInstances` run at once (`--models-max`); loading another first stops the one
 * used least recently.
 *
 * `flavour: 'llama-swap'` plays llama-swap instead (mostlygeek/llama-swap, internal/server/api.go
 * and swaputil): one model at a time by default (a request for another swaps it in), /v1/models
 * with `owned_by: "llama-swap"`, `status.value` "loaded" (starting or ready) or "unloaded" and
 * the configured `meta.n_ctx` and `capabilities`, GET /running with each process's state
 * ("starting", "ready"), no /props, and a request it cannot place a 404
 * `{src: "llama-swap", error: {message: "no local server found for requested model", …}}`.
 */

export type RouterModel = {
  id: string;
  nCtx?: number;
  vision?: boolean;
  /** A thinking model's template (Qwen3's): /props shows `enable_thinking` in its chat template. */
  thinking?: boolean;
  /** Running from the start. */
  loaded?: boolean;
  /** Its child exits while loading, with this code (a broken GGUF, too little memory). */
  failsWith?: number;
  /**
   * A model that takes real time, as on a GPU: each uncached prompt token and each generated
   * token cost their share of a second (`npm run bench` compares a large model with a small one;
   * tests never set it, so they never wait on a clock).
   */
  speed?: { promptPerSecond: number; predictedPerSecond: number };
};

export type RouterOptions = {
  flavour?: 'router' | 'llama-swap';
  models: RouterModel[];
  /** `--models-max`; 4 by default, as the server's. */
  maxInstances?: number;
  /** What a load waits on before the model is ready: a test's gate (no clock), or nothing. */
  loading?: (id: string) => Promise<unknown>;
};

type Status = 'unloaded' | 'loading' | 'loaded';
type Entry = { model: RouterModel; status: Status; failed?: number; lastUsed: number; ready?: Promise<void> };

export class RouterState {
  private readonly entries = new Map<string, Entry>();
  private clock = 0;
  /** Every load the router started, in order (a test sees a cold model load once). */
  readonly loads: string[] = [];

  constructor(private readonly options: RouterOptions) {
    for (const model of options.models) {
      this.entries.set(model.id, { model, status: model.loaded ? 'loaded' : 'unloaded', lastUsed: 0 });
    }
  }

  get flavour(): 'router' | 'llama-swap' {
    return this.options.flavour ?? 'router';
  }

  get maxInstances(): number {
    return this.options.maxInstances ?? (this.flavour === 'llama-swap' ? 1 : 4);
  }

  /** llama-swap's GET /v1/models (handleListModels). */
  swapList(): Record<string, unknown> {
    const created = Math.floor(Date.now() / 1000);
    return {
      object: 'list',
      data: [...this.entries.values()].map((e) => ({
        id: e.model.id,
        object: 'model',
        created,
        owned_by: 'llama-swap',
        status: { value: e.status === 'unloaded' ? 'unloaded' : 'loaded' },
        ...(e.model.vision ? { architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] } } : {}),
        capabilities: { function_calling: true, ...(e.model.vision ? { vision: true } : {}) },
        ...(e.model.nCtx ? { context_length: e.model.nCtx } : {}),
        meta: { llamaswap: { type: 'model' }, ...(e.model.nCtx ? { n_ctx: e.model.nCtx } : {}) },
      })),
    };
  }

  /** llama-swap's GET /running. */
  running(): Record<string, unknown> {
    return {
      running: [...this.entries.values()]
        .filter((e) => e.status !== 'unloaded')
        .map((e) => ({
          model: e.model.id,
          state: e.status === 'loading' ? 'starting' : 'ready',
          cmd: '',
          proxy: '',
          ttl: 0,
          name: '',
          description: '',
        }))
        .sort((a, b) => a.model.localeCompare(b.model)),
    };
  }

  model(id: string): RouterModel | undefined {
    return this.entries.get(id)?.model;
  }

  isLoaded(id: string): boolean {
    return this.entries.get(id)?.status === 'loaded';
  }

  /** GET /v1/models as the router writes it (get_router_models). */
  list(meta: (m: RouterModel) => Record<string, unknown>): Record<string, unknown> {
    const created = Math.floor(Date.now() / 1000);
    return {
      data: [...this.entries.values()].map((e) => ({
        id: e.model.id,
        aliases: [],
        tags: [],
        object: 'model',
        owned_by: 'llamacpp',
        created,
        status: {
          value: e.status,
          args: ['llama-server', '--model', `/models/${e.model.id}.gguf`],
          ...(e.failed !== undefined ? { exit_code: e.failed, failed: true } : {}),
        },
        architecture: { input_modalities: e.model.vision ? ['text', 'image'] : ['text'], output_modalities: ['text'] },
        source: 'preset',
        can_remove: false,
        ...(e.status === 'loaded' ? { meta: meta(e.model) } : {}),
      })),
      object: 'list',
    };
  }

  /**
   * Validates a request's model and loads it when it is not running: null when it may go on,
   * otherwise the router's error.
   */
  async ready(id: unknown, autoload = true): Promise<{ status: number; type: string; message: string } | null> {
    const swap = this.flavour === 'llama-swap';
    if (typeof id !== 'string' || id === '')
      return swap
        ? { status: 404, type: 'invalid_request_error', message: 'no model id could be identified' }
        : { status: 400, type: 'invalid_request_error', message: 'model name is missing from the request' };
    const entry = this.entries.get(id);
    if (!entry)
      return swap
        ? { status: 404, type: 'invalid_request_error', message: 'no local server found for requested model' }
        : { status: 400, type: 'invalid_request_error', message: `model '${id}' not found` };
    entry.lastUsed = ++this.clock;
    if (entry.status === 'loaded') return null;
    if (!autoload) return { status: 400, type: 'invalid_request_error', message: 'model is not loaded' };
    entry.ready ??= this.load(entry);
    await entry.ready;
    if ((entry.status as Status) !== 'loaded') return { status: 500, type: 'server_error', message: `model name=${id} failed to load` };
    return null;
  }

  private async load(entry: Entry): Promise<void> {
    // A free instance first: the least recently used running model is stopped.
    const running = [...this.entries.values()].filter((e) => e.status !== 'unloaded');
    if (running.length >= this.maxInstances) {
      const victim = running.filter((e) => e.status === 'loaded').sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (victim) victim.status = 'unloaded';
    }
    this.loads.push(entry.model.id);
    entry.status = 'loading';
    entry.failed = undefined;
    await (this.options.loading?.(entry.model.id) ?? Promise.resolve());
    if (entry.model.failsWith !== undefined) {
      entry.status = 'unloaded';
      entry.failed = entry.model.failsWith;
    } else entry.status = 'loaded';
    entry.ready = undefined;
  }
}
