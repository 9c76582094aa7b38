import { mergeFields, thinkingFields } from './thinking';
import { hasErrorCode } from '@/lib/errors';
import type { ChatOptions, ChatRequest, ChatResult, ModelClient, ModelHealth } from './types';

/**
 * The model servers Hearth spreads turns over: one llama-server, or several (one GPU or one
 * machine each). It is also the queue in front of them: as many turns run at once as the
 * servers have conversation slots; the rest wait in order and hear their place.
 *
 * - Slots. Each server's slot count comes from its /props (or MODEL_SLOTS). With two or more,
 *   the last slot is kept for side calls (decide steps, plans), sent with `id_slot`, so a
 *   verdict never overwrites a conversation's prompt cache; the others take one turn each.
 *   With one slot, conversation and side calls share it.
 * - Placement. A new turn goes to the slot its thread used last if that is free (it holds the
 *   thread's cache), else another free slot on the same server (llama-server's host-memory
 *   cache is per server), else the server with the most free slots.
 * - Failure. A server that cannot be reached, or whose stream breaks, is marked down and
 *   turns are routed around it; the call that failed moves to another server when it had
 *   streamed nothing yet. Down servers are checked again in the background. With every server
 *   down a turn is still placed, so it ends with a clear error instead of waiting forever.
 *
 * - Models. A server behind llama-server's router mode or llama-swap offers several models
 *   (its /v1/models lists them). A turn asks for its thread's model and goes only to servers
 *   that offer it (the rules above apply among those); side calls ask for the checks model
 *   when Settings names one, on the turn's server if it has it, else on one that does. A turn
 *   whose model no server lists is placed as before, and ends with the server's own refusal.
 */

/** A model's load state behind a router or llama-swap (lib/llm/models.ts); null: the server runs one model. */
export type LoadState = 'loaded' | 'loading' | 'unloaded' | 'failed' | null;

export type ServerHealth = ModelHealth & {
  /** Hearth routes turns to it. */
  up: boolean;
  /** Turns running on it now, and how many it can run at once. */
  running: number;
  conversationSlots: number;
  /** A slot of its own for side calls. */
  sideSlot: boolean;
};

export type Lease = {
  /** The model for this turn: its calls go to its slot, and move with it if its server fails. */
  model: ModelClient;
  /** Side calls have a slot of their own, so they can run beside the conversation's rounds. */
  parallelSideCalls: boolean;
  /** Where the turn started (it may move if that server fails). */
  url: string;
  /** The model its conversation calls ask for: the thread's, else the server's own. */
  modelId?: string;
  contextSize?: number;
  /** The server the turn starts on takes images. */
  vision: boolean;
};

type Server = { url: string; client: ModelClient; health: ModelHealth | null; up: boolean; busy: Map<number, string> };
type Placement = { server: Server; slot: number };
type Waiter = {
  turnId: string;
  threadId: string;
  model?: string;
  avoid?: Server;
  admit: (p: Placement | null) => void;
  notify: (position: number) => void;
};

export type PoolOptions = {
  /** Slots per server when given (MODEL_SLOTS); otherwise each server's /props says. */
  slots?: number;
  /** How often down servers are checked again. */
  recheckMs?: number;
  /** The model for decide steps, plans and titles (Settings' checks model); unset: the turn's own. */
  checksModel?: string;
  /** A model's load state on a server, asked once per turn and model before its first call (a cold one takes a while to load). */
  loadState?: (url: string, model: string) => Promise<LoadState>;
  log?: (message: string) => void;
};

/** What a turn asks of the pool: its model, and who hears that a cold model is loading (and when it is done). */
export type TurnWants = { model?: string; onLoading?: (model: string, loading: boolean) => void };

/** A failure of the server itself (not a request it refused): it is marked down and routed around. */
const isServerFailure = (err: unknown) => hasErrorCode(err, 'model_unreachable', 'model_stream_broken');

/** How often a server marked down is asked again whether it is back. */
const RECHECK_MS = 10_000;

export class ModelPool {
  private readonly servers: Server[];
  private readonly waiting: Waiter[] = [];
  private readonly running = new Map<string, Placement>();
  /** The slot each thread's last turn used: it holds that thread's prompt cache. */
  private readonly lastSlot = new Map<string, { url: string; slot: number }>();
  private recheck: NodeJS.Timeout | null = null;
  /** Background calls under way (titles): stopped when a turn arrives. */
  private readonly background = new Set<AbortController>();
  private firstCheck: Promise<ServerHealth[]>;

  constructor(
    servers: readonly { url: string; client: ModelClient }[],
    private readonly options: PoolOptions = {},
  ) {
    if (servers.length === 0) throw new Error('a model pool needs at least one server');
    this.servers = servers.map((s) => ({ url: s.url, client: s.client, health: null, up: true, busy: new Map() }));
    this.firstCheck = this.refresh();
  }

  /** Resolves once every server has been asked for its slots, model and context size once. */
  ready(): Promise<ServerHealth[]> {
    return this.firstCheck;
  }

  private slotsOf(s: Server): number {
    return Math.max(1, this.options.slots ?? s.health?.slots ?? 1);
  }

  private conversationSlots(s: Server): number {
    const n = this.slotsOf(s);
    return n >= 2 ? n - 1 : 1;
  }

  private freeSlot(s: Server): number | null {
    for (let i = 0; i < this.conversationSlots(s); i++) if (!s.busy.has(i)) return i;
    return null;
  }

  /** The server lists the model (any server does when no model is named). */
  private offers(s: Server, model: string | undefined): boolean {
    return !model || (s.health?.models?.includes(model) ?? false);
  }

  private summary(s: Server): ServerHealth {
    const health = s.health ?? { url: s.url, reachable: false, error: 'not checked yet' };
    return { ...health, up: s.up, running: s.busy.size, conversationSlots: this.conversationSlots(s), sideSlot: this.slotsOf(s) >= 2 };
  }

  /** Asks every server how it is (slots, model, context size); one that answers is up. */
  async refresh(): Promise<ServerHealth[]> {
    await Promise.all(
      this.servers.map(async (s) => {
        const health = await s.client
          .health()
          .catch((err: unknown) => ({ url: s.url, reachable: false, error: String((err as Error)?.message ?? err) }));
        s.health = health;
        if (health.reachable !== s.up)
          this.options.log?.(`model server ${s.url} is ${health.reachable ? 'up' : `down (${health.error ?? 'no answer'})`}`);
        s.up = health.reachable;
      }),
    );
    this.watchDownServers();
    this.advance();
    return this.servers.map((s) => this.summary(s));
  }

  /** Every server as last seen, without asking again. */
  get status(): ServerHealth[] {
    return this.servers.map((s) => this.summary(s));
  }

  /** One health report for all servers: reachable if any is, the first reachable one's model. */
  static combine(servers: readonly ServerHealth[]): ModelHealth {
    if (servers.length === 1) {
      const { up: _up, running: _r, conversationSlots: _c, sideSlot: _s, ...one } = servers[0];
      return one;
    }
    const reachable = servers.filter((s) => s.reachable);
    const first = reachable[0] ?? servers[0];
    const contexts = reachable.map((s) => s.contextSize).filter((n): n is number => typeof n === 'number');
    return {
      url: servers.map((s) => s.url).join(', '),
      reachable: reachable.length > 0,
      ...(first.id ? { id: first.id } : {}),
      ...(contexts.length ? { contextSize: Math.min(...contexts) } : {}),
      slots: servers.reduce((n, s) => n + (s.slots ?? 0), 0),
      // Images are seen only if every reachable server sees them: a turn may move between servers.
      vision: reachable.length > 0 && reachable.every((s) => s.vision === true),
      ...(reachable.length
        ? {}
        : { error: servers.map((s) => `${s.url}: ${s.error ?? 'no answer'}`).join('; '), answeredStatus: first.answeredStatus }),
    };
  }

  /** A server that answered a call is up, whatever its last health check said. */
  private markUp(s: Server) {
    if (s.up) return;
    s.up = true;
    this.options.log?.(`model server ${s.url} is back`);
    this.watchDownServers();
  }

  /** The turn's slot is free again (it failed there, or ended). */
  private vacate(turnId: string): Placement | undefined {
    const p = this.running.get(turnId);
    if (!p) return undefined;
    this.running.delete(turnId);
    if (p.server.busy.get(p.slot) === turnId) p.server.busy.delete(p.slot);
    return p;
  }

  private markDown(s: Server, why: string) {
    if (!s.up) return;
    s.up = false;
    s.health = { ...(s.health ?? { url: s.url }), reachable: false, error: why };
    this.options.log?.(`model server ${s.url} is down (${why}); turns go to the others`);
    this.watchDownServers();
  }

  private watchDownServers() {
    const anyDown = this.servers.some((s) => !s.up);
    if (anyDown && !this.recheck) {
      this.recheck = setInterval(() => void this.recheckDown(), this.options.recheckMs ?? RECHECK_MS);
      this.recheck.unref();
    } else if (!anyDown && this.recheck) {
      clearInterval(this.recheck);
      this.recheck = null;
    }
  }

  private async recheckDown() {
    const down = this.servers.filter((s) => !s.up);
    await Promise.all(
      down.map(async (s) => {
        const health = await s.client.health().catch(() => null);
        if (health?.reachable) {
          s.health = health;
          this.markUp(s);
        }
      }),
    );
    this.watchDownServers();
    this.advance();
  }

  /** Where a turn of this thread should run now; 'wait' when every usable slot is taken. */
  private place(threadId: string, avoid?: Server, model?: string): Placement | 'wait' | null {
    const others = this.servers.filter((s) => s !== avoid);
    // Only servers that offer the model; if none lists it, any (the server's refusal ends the turn clearly).
    const offering = others.filter((s) => this.offers(s, model));
    const usable = offering.length ? offering : others;
    const up = usable.filter((s) => s.up);
    // Nothing up: place anyway so the turn fails with a clear error, unless moving away from a failure.
    const candidates = up.length ? up : avoid ? [] : usable;
    if (candidates.length === 0) return null;
    const last = this.lastSlot.get(threadId);
    const home = last ? candidates.find((s) => s.url === last.url) : undefined;
    if (home && last && last.slot < this.conversationSlots(home) && !home.busy.has(last.slot)) return { server: home, slot: last.slot };
    const homeSlot = home ? this.freeSlot(home) : null;
    if (home && homeSlot !== null) return { server: home, slot: homeSlot };
    let best: Server | null = null;
    let bestFree = 0;
    for (const s of candidates) {
      const free = this.conversationSlots(s) - s.busy.size;
      if (free > bestFree && this.freeSlot(s) !== null) {
        best = s;
        bestFree = free;
      }
    }
    if (!best) return 'wait';
    return { server: best, slot: this.freeSlot(best)! };
  }

  private take(turnId: string, threadId: string, p: Placement) {
    p.server.busy.set(p.slot, turnId);
    this.running.set(turnId, p);
    this.lastSlot.set(threadId, { url: p.server.url, slot: p.slot });
  }

  private advance() {
    while (this.waiting.length > 0) {
      const next = this.waiting[0];
      const p = this.place(next.threadId, next.avoid, next.model);
      if (p === 'wait') break;
      this.waiting.shift();
      if (p) this.take(next.turnId, next.threadId, p);
      next.admit(p);
    }
    this.waiting.forEach((w, i) => w.notify(i + 1));
  }

  /**
   * Resolves with the turn's lease when a slot is free; `notify` hears its place in the queue
   * (1 = next) while it waits. Resolves with null when the turn left the queue first.
   */
  async enter(turnId: string, threadId: string, notify: (position: number) => void, wants: TurnWants = {}): Promise<Lease | null> {
    // A turn never waits behind background work.
    for (const stop of this.background) stop.abort(new Error('a turn needs the model'));
    this.background.clear();
    // The first turns after start wait for the servers' first answer (slots, model, context).
    await this.firstCheck;
    const placement = await this.admit({ turnId, threadId, notify, model: wants.model });
    if (!placement) return null;
    return this.lease(turnId, threadId, placement, wants);
  }

  private admit(w: Omit<Waiter, 'admit'>, first = false): Promise<Placement | null> {
    if (this.waiting.length === 0 || first) {
      const p = this.place(w.threadId, w.avoid, w.model);
      if (p !== 'wait') {
        if (p) this.take(w.turnId, w.threadId, p);
        return Promise.resolve(p);
      }
    }
    return new Promise((resolve) => {
      const waiter = { ...w, admit: resolve };
      if (first) {
        // A turn moving away from a failed server goes first; everyone behind it moves back one.
        this.waiting.unshift(waiter);
        this.waiting.forEach((x, i) => x.notify(i + 1));
      } else {
        this.waiting.push(waiter);
        waiter.notify(this.waiting.length);
      }
    });
  }

  /** A turn that finished, or was stopped while it waited, gives its slot (or its place) back. */
  leave(turnId: string) {
    const p = this.vacate(turnId);
    const at = this.waiting.findIndex((w) => w.turnId === turnId);
    if (at >= 0) this.waiting.splice(at, 1)[0].admit(null);
    if (p || at >= 0) this.advance();
  }

  /**
   * A model for background work (a thread's title) while no turn runs or waits, or null. Its
   * calls go where side calls go (the side slot, or the only one) and are stopped (`signal`
   * aborts) the moment a turn arrives, so background work never delays a turn; the caller
   * tries again once the pool is idle. `release` when done.
   */
  idle(): { model: ModelClient; signal: AbortSignal; release: () => void } | null {
    if (this.running.size > 0 || this.waiting.length > 0) return null;
    const checks = this.options.checksModel;
    const up = this.servers.filter((s) => s.up);
    const server = up.find((s) => this.offers(s, checks)) ?? up[0];
    if (!server) return null;
    const ask = checks && this.offers(server, checks) ? checks : undefined;
    const stop = new AbortController();
    this.background.add(stop);
    const placement: Placement = { server, slot: 0 };
    const model: ModelClient = {
      health: () => server.client.health(),
      chat: async (request, options = {}) => {
        const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
        try {
          const asked = { ...request, lane: 'side' as const, ...(ask && !request.model ? { model: ask } : {}) };
          const result = await server.client.chat(this.routed(asked, placement), { ...options, signal });
          this.markUp(server);
          return result;
        } catch (err) {
          // Background work is not moved (it tries again later), but what it learnt of the server counts.
          if (!signal.aborted && isServerFailure(err)) this.markDown(server, (err as Error).message);
          throw err;
        }
      },
    };
    return { model, signal: stop.signal, release: () => this.background.delete(stop) };
  }

  get stats() {
    return {
      running: this.running.size,
      waiting: this.waiting.length,
      slots: this.servers.reduce((n, s) => n + (s.up ? this.conversationSlots(s) : 0), 0),
    };
  }

  private lease(turnId: string, threadId: string, start: Placement, wants: TurnWants): Lease {
    let placement = start;
    /** The move off a failed server under way: every call of the turn that failed there waits for this one. */
    let moving: Promise<Placement | null> | null = null;
    // The client below is an object with methods of its own `this`; its calls reach the pool by name.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const pool = this;
    /**
     * Where the turn's calls go after `failed` failed one of them. A turn's round and its
     * checks can fail on the same dead server at once (checks run beside the first round):
     * the first failure moves the turn, the others follow it there, so no call of the turn
     * ever waits for a slot the turn itself holds. A turn that has left the pool (ended,
     * stopped) is never placed again, so no slot is taken for it after its end.
     */
    const moveFrom = (failed: Server, why: string): Promise<Placement | null> => {
      if (moving) return moving;
      if (pool.running.get(turnId) !== placement) return Promise.resolve(null);
      if (placement.server !== failed) return Promise.resolve(placement);
      moving = (async () => {
        pool.markDown(failed, why);
        pool.vacate(turnId);
        const ticket = pool.admit({ turnId, threadId, avoid: failed, notify: () => undefined }, true);
        // The slot given up and the server now down change what every waiting turn can have:
        // one that was waiting to move away from another failure may now have nowhere to go.
        pool.advance();
        const moved = await ticket;
        if (moved) {
          pool.options.log?.(`turn ${turnId} moved from ${failed.url} to ${moved.server.url}`);
          placement = moved;
        }
        return moved;
      })().finally(() => (moving = null));
      return moving;
    };
    /** The servers and models whose load state this turn has asked (once each). */
    const asked = new Set<string>();
    /**
     * One call on a server. Behind a router or llama-swap the model may have to be loaded
     * first (seconds to minutes): a cold one is said to the turn until its first words arrive
     * or the call ends, so the wait reads as loading, not as a hang.
     */
    const send = async (at: Placement, request: ChatRequest, options: ChatOptions): Promise<ChatResult> => {
      const name = request.model;
      const key = `${at.server.url}\n${name}`;
      // A server that lists one model runs it (llama-server as most start it): nothing to load.
      const several = (at.server.health?.models?.length ?? 0) > 1;
      let cold = false;
      if (name && several && wants.onLoading && pool.options.loadState && !asked.has(key)) {
        asked.add(key);
        const state = await pool.options.loadState(at.server.url, name).catch(() => null);
        cold = state === 'unloaded' || state === 'loading';
      }
      if (!cold) return at.server.client.chat(pool.routed(request, at), options);
      wants.onLoading!(name!, true);
      let loading = true;
      const loaded = () => {
        if (loading) wants.onLoading!(name!, false);
        loading = false;
      };
      const onDelta = options.onDelta && ((t: string) => (loaded(), options.onDelta!(t)));
      const onReasoning = options.onReasoning && ((t: string) => (loaded(), options.onReasoning!(t)));
      try {
        return await at.server.client.chat(pool.routed(request, at), { ...options, onDelta, onReasoning });
      } finally {
        loaded();
      }
    };
    const checks = pool.options.checksModel;
    const model: ModelClient = {
      health: () => placement.server.client.health(),
      async chat(request: ChatRequest, options: ChatOptions = {}): Promise<ChatResult> {
        const side = request.lane !== 'conversation';
        if (side && checks && !request.model) {
          // The checks model answers decide steps and plans: here if this server has it, else on one that does.
          const at = pool.offers(placement.server, checks)
            ? placement
            : pool.servers.filter((s) => s.up && pool.offers(s, checks)).map((server) => ({ server, slot: 0 }))[0];
          if (at) {
            const result = await send(at, { ...request, model: checks }, options).catch((err: unknown) => {
              if (!options.signal?.aborted && isServerFailure(err)) pool.markDown(at.server, (err as Error).message);
              throw err;
            });
            pool.markUp(at.server);
            return result;
          }
        }
        if (wants.model && !request.model) request = { ...request, model: wants.model };
        for (;;) {
          const { server } = placement;
          let streamed = false;
          const onDelta = options.onDelta && ((t: string) => ((streamed = true), options.onDelta!(t)));
          // Thinking the page has shown is output too: the turn stays on this server.
          const onReasoning = options.onReasoning && ((t: string) => ((streamed = true), options.onReasoning!(t)));
          try {
            const result = await send(placement, request, { ...options, onDelta, onReasoning });
            pool.markUp(server);
            return result;
          } catch (err) {
            // Only a server that failed (not a request it refused) moves the turn, and only when nothing reached the user.
            if (streamed || options.signal?.aborted || !isServerFailure(err)) throw err;
            if (!(await moveFrom(server, (err as Error).message))) throw err;
          }
        }
      },
    };
    const h = start.server.health;
    return {
      model,
      parallelSideCalls: this.slotsOf(start.server) >= 2,
      url: start.server.url,
      vision: h?.vision === true,
      ...((wants.model ?? h?.id) ? { modelId: wants.model ?? h?.id } : {}),
      ...(h?.contextSize ? { contextSize: h.contextSize } : {}),
    };
  }

  /** The request with its slot: the turn's own for the conversation, the side slot for the rest. */
  private routed(request: ChatRequest, { server, slot }: Placement): ChatRequest {
    // Side calls (checks, plans, titles) never think: a thinking model would spend hundreds of
    // tokens before a one-word verdict, and the verdict's probabilities are the answer's tokens.
    if (request.lane !== 'conversation') request = { ...request, extra: mergeFields(request.extra, thinkingFields('off')) };
    // Only a llama-server (one that reported its slots) is sent id_slot; gateways may refuse unknown fields.
    if (server.health?.slots === undefined && this.options.slots === undefined) return request;
    const n = this.slotsOf(server);
    const target = request.lane === 'conversation' || n < 2 ? slot : n - 1;
    return { ...request, extra: { ...request.extra, id_slot: target } };
  }

  /** Stops the background checks (tests, shutdown). */
  close() {
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
  }
}
