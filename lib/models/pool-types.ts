import type { SharedSlots } from './shared-queue';
import type { ModelClient, ModelHealth } from './types';

/** The model-server pool's shapes (pool.ts), shared with a turn's lease (pool-lease.ts). */

/** A model's load state behind a router or llama-swap (lib/models/models.ts); null: the server runs one model. */
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

export type Server = { url: string; client: ModelClient; health: ModelHealth | null; up: boolean; busy: Map<number, string> };
export type Placement = { server: Server; slot: number };
export type Waiter = {
  turnId: string;
  threadId: string;
  model?: string;
  person?: string;
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
  /** Several Hearth processes on one database: the slot queue is the database's, shared by all (shared-queue.ts). */
  shared?: SharedSlots;
};

/** What a turn asks of the pool: its model, and who hears that a cold model is loading (and when it is done). */
export type TurnWants = {
  model?: string;
  onLoading?: (model: string, loading: boolean) => void;
  /** Whose turn it is: turns waiting for a slot are served round-robin by person. */
  person?: string;
};
