import { hasErrorCode } from '@/lib/shared/errors';
import type { Lease, Placement, PoolOptions, Server, TurnWants } from './pool-types';
import type { ChatOptions, ChatRequest, ChatResult, ModelClient } from './types';

/**
 * A turn's lease on the pool (pool.ts): the model client its calls go through. Calls go to the
 * turn's slot, side calls to the checks model where Settings names one, a cold model is said to
 * be loading, and a server that fails before anything streamed moves the turn to another.
 */

/** A failure of the server itself (not a request it refused): it is marked down and routed around. */
export const isServerFailure = (err: unknown) => hasErrorCode(err, 'model_unreachable', 'model_stream_broken');

/** What a lease may ask of the pool. */
export type LeasePort = {
  options: Pick<PoolOptions, 'checksModel' | 'loadState' | 'log'>;
  /** Where the turn runs now; undefined once it has left the pool. */
  placementOf: (turnId: string) => Placement | undefined;
  markDown: (server: Server, why: string) => void;
  markUp: (server: Server) => void;
  /** Gives up the turn's slot and queues it first for a server other than `avoid`; null when there is none. */
  requeue: (turnId: string, threadId: string, avoid: Server) => Promise<Placement | null>;
  offers: (server: Server, model: string | undefined) => boolean;
  upServers: () => Server[];
  /** The request with its slot (the turn's own, or the side slot). */
  routed: (request: ChatRequest, at: Placement) => ChatRequest;
  slotsOf: (server: Server) => number;
};

export function turnLease(pool: LeasePort, turnId: string, threadId: string, start: Placement, wants: TurnWants): Lease {
  let placement = start;
  /** The move off a failed server under way: every call of the turn that failed there waits for this one. */
  let moving: Promise<Placement | null> | null = null;
  /**
   * Where the turn's calls go after `failed` failed one of them. A turn's round and its
   * checks can fail on the same dead server at once (checks run beside the first round):
   * the first failure moves the turn, the others follow it there, so no call of the turn
   * ever waits for a slot the turn itself holds. A turn that has left the pool (ended,
   * stopped) is never placed again, so no slot is taken for it after its end.
   */
  const moveFrom = (failed: Server, why: string): Promise<Placement | null> => {
    if (moving) return moving;
    if (pool.placementOf(turnId) !== placement) return Promise.resolve(null);
    if (placement.server !== failed) return Promise.resolve(placement);
    moving = (async () => {
      pool.markDown(failed, why);
      const moved = await pool.requeue(turnId, threadId, failed);
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
          : pool
              .upServers()
              .filter((s) => pool.offers(s, checks))
              .map((server) => ({ server, slot: 0 }))[0];
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
    parallelSideCalls: pool.slotsOf(start.server) >= 2,
    url: start.server.url,
    vision: h?.vision === true,
    ...((wants.model ?? h?.id) ? { modelId: wants.model ?? h?.id } : {}),
    ...(h?.contextSize ? { contextSize: h.contextSize } : {}),
  };
}
