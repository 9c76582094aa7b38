import { mergeFields, thinkingFields } from './thinking';
import type { ChatRequest, ModelClient, ModelHealth } from './types';
import { isServerFailure, turnLease, type LeasePort } from './pool-lease';
import type { QueueGrant, QueueRow } from '@/lib/contract/model-queue';
import type { Lease, Placement, PoolOptions, Server, ServerHealth, TurnWants, Waiter } from './pool-types';
import { servingOrder, SharedQueue, type Grant } from './shared-queue';

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
 * - Several processes. With `shared` (several Hearth processes on one PostgreSQL database) the
 *   queue is the database's, shared by all of them (shared-queue.ts): the rules above place
 *   every process's turns, and a server's busy slots are counted over all of them.
 */

export type { Lease, LoadState, PoolOptions, ServerHealth, TurnWants } from './pool-types';

/** How often a server marked down is asked again whether it is back. */
const RECHECK_MS = 10_000;

export class ModelPool {
  private readonly servers: Server[];
  private readonly waiting: Waiter[] = [];
  private readonly running = new Map<string, Placement>();
  /** Whose each running or waiting turn is (for the round-robin of the queue). */
  private readonly owners = new Map<string, string>();
  /** The slot each thread's last turn used: it holds that thread's prompt cache. */
  private readonly lastSlot = new Map<string, { url: string; slot: number }>();
  private recheck: NodeJS.Timeout | null = null;
  /** Background calls under way (titles): stopped when a turn arrives. */
  private readonly background = new Set<AbortController>();
  private firstCheck: Promise<ServerHealth[]>;
  /** The queue shared with the other processes on the database, when there are any. */
  private readonly shared: SharedQueue | null;

  constructor(
    servers: readonly { url: string; client: ModelClient }[],
    private readonly options: PoolOptions = {},
  ) {
    if (servers.length === 0) throw new Error('a model pool needs at least one server');
    this.servers = servers.map((s) => ({ url: s.url, client: s.client, health: null, up: true, busy: new Map() }));
    this.firstCheck = this.refresh();
    this.shared = options.shared
      ? new SharedQueue(options.shared, {
          decide: (rows, owner) => this.decide(rows, owner),
          saw: (rows) => this.sawQueue(rows),
          log: options.log,
        })
      : null;
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

  private freeSlot(s: Server, busy = s.busy): number | null {
    for (let i = 0; i < this.conversationSlots(s); i++) if (!busy.has(i)) return i;
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

  /** Asks every server how it is (slots, model, context size); one that answers is up. With other processes, their turns are counted again. */
  async refresh(): Promise<ServerHealth[]> {
    await this.shared?.refresh();
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

  /** Where a turn of this thread should run now; 'wait' when every usable slot is taken. `busyOf`: a server's slots taken. */
  private place(threadId: string, avoid?: Server, model?: string, busyOf = (s: Server) => s.busy): Placement | 'wait' | null {
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
    if (home && last && last.slot < this.conversationSlots(home) && !busyOf(home).has(last.slot)) return { server: home, slot: last.slot };
    const homeSlot = home ? this.freeSlot(home, busyOf(home)) : null;
    if (home && homeSlot !== null) return { server: home, slot: homeSlot };
    let best: Server | null = null;
    let bestFree = 0;
    for (const s of candidates) {
      const free = this.conversationSlots(s) - busyOf(s).size;
      if (free > bestFree && this.freeSlot(s, busyOf(s)) !== null) {
        best = s;
        bestFree = free;
      }
    }
    if (!best) return 'wait';
    return { server: best, slot: this.freeSlot(best, busyOf(best))! };
  }

  /**
   * What one look at the shared queue grants (shared-queue.ts): every waiting turn of every
   * process, in serving order, placed by the rules above over the slots all of them hold,
   * until one must wait (those behind it wait too, as in this process's own queue). Only this
   * queue's own turns are granted; another's hold their place (its own look grants them, on
   * the servers it knows).
   */
  private decide(rows: readonly QueueRow[], owner: string): QueueGrant[] {
    const busy = new Map(this.servers.map((s) => [s, new Map<number, string>()]));
    const serverAt = (url: string | null) => this.servers.find((s) => s.url === url);
    for (const r of rows) {
      const server = serverAt(r.serverUrl);
      if (server && r.slot !== null) busy.get(server)!.set(r.slot, r.turnId);
    }
    const grants: QueueGrant[] = [];
    for (const r of servingOrder(rows)) {
      const p = this.place(r.threadId, serverAt(r.avoidUrl), r.model ?? undefined, (s) => busy.get(s)!);
      if (p === 'wait') break;
      const own = r.process === owner;
      if (!p) {
        if (own) grants.push({ turnId: r.turnId, refused: true });
        continue;
      }
      busy.get(p.server)!.set(p.slot, r.turnId);
      if (own) grants.push({ turnId: r.turnId, serverUrl: p.server.url, slot: p.slot });
    }
    return grants;
  }

  /** The servers' busy slots, as the shared queue holds them: every process's turns. */
  private sawQueue(rows: readonly QueueRow[]) {
    for (const s of this.servers) {
      s.busy.clear();
      for (const r of rows) if (r.serverUrl === s.url && r.slot !== null) s.busy.set(r.slot, r.turnId);
    }
  }

  /** A turn granted a slot by the shared queue takes it here (null: it left, or no server can take it). */
  private granted(turnId: string, threadId: string, grant: Grant | null): Placement | null {
    const server = grant && this.servers.find((s) => s.url === grant.url);
    if (!grant || !server) {
      if (grant) this.shared!.leave(turnId);
      return null;
    }
    const p = { server, slot: grant.slot };
    this.take(turnId, threadId, p);
    return p;
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
    if (wants.person !== undefined) this.owners.set(turnId, wants.person);
    const placement = this.shared
      ? this.granted(
          turnId,
          threadId,
          await this.shared.enter({ turnId, threadId, person: wants.person ?? null, model: wants.model ?? null, avoidUrl: null }, notify),
        )
      : await this.admit({ turnId, threadId, notify, model: wants.model, person: wants.person });
    if (!placement) {
      this.owners.delete(turnId);
      return null;
    }
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
        // Round-robin by person: one person's five turns do not hold another's one behind all of them.
        const at = this.fairPlace(w.person);
        this.waiting.splice(at, 0, waiter);
        for (let i = at; i < this.waiting.length; i++) this.waiting[i].notify(i + 1);
      }
    });
  }

  /**
   * Where a new turn waits: after every waiting turn of its round or an earlier one, a turn's
   * round being how many turns of its person run or wait ahead of it. So a person with nothing
   * running goes ahead of another's second, third… turn. Turns of no one (background callers)
   * keep their place at the end.
   */
  private fairPlace(person: string | undefined): number {
    if (person === undefined) return this.waiting.length;
    const ahead = new Map<string, number>();
    for (const turnId of this.running.keys()) {
      const owner = this.owners.get(turnId);
      if (owner !== undefined) ahead.set(owner, (ahead.get(owner) ?? 0) + 1);
    }
    const mine = (ahead.get(person) ?? 0) + this.waiting.filter((w) => w.person === person).length;
    for (let i = 0; i < this.waiting.length; i++) {
      const owner = this.waiting[i].person;
      if (owner === undefined) continue;
      const round = ahead.get(owner) ?? 0;
      ahead.set(owner, round + 1);
      if (round > mine) return i;
    }
    return this.waiting.length;
  }

  /** A turn that finished, or was stopped while it waited, gives its slot (or its place) back. */
  leave(turnId: string) {
    this.owners.delete(turnId);
    const p = this.vacate(turnId);
    if (this.shared) {
      this.shared.leave(turnId);
      return;
    }
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
    // This process's own turns: another process's are stopped by nothing here (its checks and a title may meet on the side slot).
    if (this.running.size > 0 || this.waiting.length > 0 || (this.shared?.waitingHere ?? 0) > 0) return null;
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
      waiting: this.waiting.length + (this.shared?.waitingHere ?? 0),
      slots: this.servers.reduce((n, s) => n + (s.up ? this.conversationSlots(s) : 0), 0),
    };
  }

  private lease(turnId: string, threadId: string, start: Placement, wants: TurnWants): Lease {
    // The lease reaches the pool only through this port (pool-lease.ts).
    const port: LeasePort = {
      options: this.options,
      placementOf: (id) => this.running.get(id),
      markDown: (server, why) => this.markDown(server, why),
      markUp: (server) => this.markUp(server),
      requeue: async (id, thread, avoid) => {
        this.vacate(id);
        if (this.shared) {
          const entry = { turnId: id, threadId: thread, person: this.owners.get(id) ?? null, model: null, avoidUrl: avoid.url };
          return this.granted(id, thread, await this.shared.enter(entry, () => undefined));
        }
        const ticket = this.admit({ turnId: id, threadId: thread, avoid, notify: () => undefined, person: this.owners.get(id) }, true);
        // The slot given up and the server now down change what every waiting turn can have:
        // one that was waiting to move away from another failure may now have nowhere to go.
        this.advance();
        return ticket;
      },
      offers: (server, model) => this.offers(server, model),
      upServers: () => this.servers.filter((server) => server.up),
      routed: (request, at) => this.routed(request, at),
      slotsOf: (server) => this.slotsOf(server),
    };
    return turnLease(port, turnId, threadId, start, wants);
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

  /** Once the shared queue (with other processes) holds what this pool told it so far. */
  settled(): Promise<void> {
    return this.shared?.settled() ?? Promise.resolve();
  }

  /** Stops the background checks (tests, shutdown). */
  close() {
    if (this.recheck) clearInterval(this.recheck);
    this.recheck = null;
    this.shared?.close();
  }
}
