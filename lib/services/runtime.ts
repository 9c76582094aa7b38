import 'server-only';
import { FileStore, type FileKind } from '@/lib/data/file-store';
import { ensureTable } from '@/lib/data/tables/attached';
import { getDb } from '@/db';
import { createAuth, type Auth } from '@/lib/services/auth/auth';
import { installSessionCheck } from '@/lib/services/auth/session-check';
import { createStore, type Store } from '@/db/store';
import { apiKeyFor, getConfig, type Config } from '@/lib/shared/config';
import { createLlamaClient } from '@/lib/models/client';
import { modelLoadState } from '@/lib/models/models';
import { ModelPool } from '@/lib/models/pool';
import type { ModelClient } from '@/lib/models/types';
import { createHostPacer } from '@/lib/tools/politeness';
import { fetchRemoteImage } from '@/lib/tools/remote-image';
import { createToolSet, type ToolSet } from '@/lib/tools/toolset';
import type { WebDeps } from '@/lib/tools/web';
import { TurnSupervisor } from '@/lib/turns/supervisor/supervisor';
import { BackgroundTitles } from '@/lib/turns/supervisor/titles';
import { memoryBook } from './memories';
import { SettingsService } from './settings';
import type { SettingKey, Settings } from '@/lib/services/settings-values';
import { ChangeFeed } from './change-feed';
import { ToolServers } from './tool-servers';
import { Knowledge } from './knowledge';
import path from 'node:path';

/**
 * The composition root: the one place that wires the database, the model client, the tools
 * and the turn supervisor together. Route handlers and instrumentation ask for it; everything
 * in lib/ below it takes its dependencies as arguments. It lives on globalThis because Next
 * bundles each route separately and they must share one registry.
 */

export type Runtime = {
  config: Config;
  store: Store;
  /** The attached files on disk (DATA_DIR/files). */
  files: FileStore;
  /** The model servers of the settings in force (a new pool when the Settings page changes them). */
  readonly models: ModelPool;
  settings: SettingsService;
  turns: TurnSupervisor;
  updates: ChangeFeed;
  auth: Auth;
  /** The user's MCP servers (mcp.json), their connections and tools. */
  toolServers: ToolServers;
  /** Knowledge collections: their indexing in the background and their search. */
  knowledge: Knowledge;
  /** The tools turns are offered now (Hearth's own and the ready MCP servers'). */
  readonly tools: ToolSet;
  /** A remote image from model output, fetched once the user clicked to load it (lib/tools/remote-image.ts). */
  remoteImage(url: string, signal: AbortSignal): Promise<{ type: string; bytes: Buffer }>;
};

/** How often new messages are embedded when past conversations are searched by meaning. */
const MESSAGE_EMBED_EVERY_MS = 20_000;

const key = Symbol.for('hearth.runtime');
type Holder = { [key]?: Runtime };

/**
 * `model` stands in for the servers of LLAMA_URL (tests hand in a scripted one); `now` for the
 * clock (the identity block carries the hour, so a test of the prompt's prefix fixes it); `log`
 * for the server's log (stderr; tests keep what they expect to hear out of their output).
 */
export function buildRuntime(
  config: Config,
  store: Store,
  {
    model,
    now = Date.now,
    allowAddress,
    withoutTools,
    log = (m) => console.warn(m),
  }: {
    model?: ModelClient;
    now?: () => number;
    allowAddress?: (address: string) => boolean;
    withoutTools?: readonly string[];
    log?: (message: string) => void;
  } = {},
): Runtime {
  const poolFor = (s: Settings) =>
    new ModelPool(
      model
        ? [{ url: s.modelServers[0].url, client: model }]
        : s.modelServers.map((server) => ({
            url: server.url,
            client: createLlamaClient({
              baseURL: server.url,
              timeoutMs: config.MODEL_TIMEOUT_MS,
              connectTimeoutMs: config.MODEL_CONNECT_TIMEOUT_MS,
              firstByteTimeoutMs: config.MODEL_FIRST_BYTE_TIMEOUT_MS,
              apiKey: apiKeyFor(config, server.url),
              model: server.model || undefined,
            }),
          })),
      {
        slots: s.modelSlots ?? undefined,
        recheckMs: config.MODEL_RECHECK_MS,
        checksModel: s.checksModel || undefined,
        loadState: model ? undefined : (url, id) => modelLoadState(url, id, { apiKey: apiKeyFor(config, url) }),
        log,
      },
    );
  const files = FileStore.of(config.DATA_DIR);
  const updates = new ChangeFeed();
  // The user's MCP servers connect in the background; their tools join the set once ready.
  const toolServers = new ToolServers(config.HEARTH_MCP_CONFIG ?? path.join(config.DATA_DIR, 'mcp.json'), {
    log,
    proposals: store,
  });
  const memory = memoryBook({ store, updates });
  // Settings are read when the indexer asks (the service below exists by then).
  const knowledge = new Knowledge({ config, store, files, settings: () => settings.current(), log, batch: config.EMBEDDINGS_BATCH });
  // The tool schemas are computed when a set is made: once, and again when a setting they use changes.
  const toolSetFor = (s: Settings) =>
    createToolSet({
      config: { ...config, SEARXNG_URL: s.searxngUrl || undefined, HEARTH_TIMEZONE: s.timezone },
      store,
      files,
      now,
      memory,
      allowAddress,
      without: [...(withoutTools ?? []), ...s.disabledTools],
      extra: toolServers.tools(),
      documents: (threadId) => knowledge.forThread(threadId),
    });
  const POOL_KEYS: SettingKey[] = ['modelServers', 'modelSlots', 'checksModel'];
  const TOOL_KEYS: SettingKey[] = ['searxngUrl', 'disabledTools', 'timezone'];
  const settings: SettingsService = new SettingsService(config, store, (changed) => {
    if (changed.some((k) => POOL_KEYS.includes(k))) {
      // Turns under way finish on the pool they entered; new ones go to the new servers.
      const old = models;
      models = poolFor(settings.current());
      old.close();
    }
    if (changed.some((k) => TOOL_KEYS.includes(k))) toolSet = toolSetFor(settings.current());
    // A new embeddings server or model: the indexer embeds everything again with it.
    if (changed.includes('embeddingsUrl') || changed.includes('embeddingsModel') || changed.includes('conversationsByMeaning'))
      knowledge.indexer.wake();
  });
  // Indexing goes on where it stopped (files queued or half embedded when the server last stopped).
  knowledge.indexer.wake();
  // With past conversations searched by meaning, new messages are embedded every little while.
  setInterval(() => settings.current().conversationsByMeaning && knowledge.indexer.wake(), MESSAGE_EMBED_EVERY_MS).unref();
  let models = poolFor(settings.current());
  let toolSet = toolSetFor(settings.current());
  toolServers.hub.onChange(() => (toolSet = toolSetFor(settings.current())));
  const turns = new TurnSupervisor({
    store,
    models: () => models,
    tools: () => toolSet,
    now,
    identity: () => {
      const s = settings.current();
      return {
        assistantName: s.assistantName,
        timezone: s.timezone,
        location: s.location || undefined,
        userName: s.userName,
        defaultInstructions: s.defaultInstructions,
      };
    },
    engine: () => {
      const s = settings.current();
      return {
        maxRounds: s.maxRounds,
        budget: { fuel: s.turnFuel, modelCalls: s.turnModelCalls, modelCallCost: 100 },
        judgeEveryAnswer: s.judgeEveryAnswer,
      };
    },
    thinking: () => {
      const s = settings.current();
      return { mode: s.thinking, inHistory: s.thinkingInHistory };
    },
    titles:
      config.HEARTH_TITLES === 'model'
        ? new BackgroundTitles({
            store,
            models: { idle: () => models.idle() },
            onTitle: (id, title) => updates.publish({ type: 'thread', id, title }),
            log,
          })
        : undefined,
    tableOf: (file) => ensureTable(files, { ...file, kind: file.kind as FileKind }),
    imageData: ({ sha256, mime }) => {
      const bytes = files.read(sha256);
      return bytes ? `data:${mime};base64,${bytes.toString('base64')}` : undefined;
    },
    approvalTimeoutMs: config.HEARTH_APPROVAL_TIMEOUT_S * 1000,
    allowAlways: (server, tool) => toolServers.allowAlways(server, tool),
    log,
  });
  const auth = createAuth(config, store, now);
  // The proxy and the streaming routes check sessions through this gate (lib/services/auth/session-check.ts).
  installSessionCheck({ required: auth.required, valid: (token) => auth.sessions.valid(token) });
  const imageDeps: WebDeps = {
    policy: { allowedPorts: config.FETCH_ALLOWED_PORTS, allowAddress },
    pacer: createHostPacer(store, now),
    now,
  };
  return {
    config,
    store,
    files,
    get models() {
      return models;
    },
    settings,
    turns,
    updates,
    auth,
    toolServers,
    knowledge,
    get tools() {
      return toolSet;
    },
    remoteImage: (url, signal) => fetchRemoteImage(url, imageDeps, signal),
  };
}

export function getRuntime(): Runtime {
  const holder = globalThis as Holder;
  if (!holder[key]) {
    const config = getConfig();
    holder[key] = buildRuntime(config, createStore(getDb()));
  }
  return holder[key];
}

/** Tests install a runtime of their own (a temporary database, the double). */
export function setRuntime(runtime: Runtime | undefined): void {
  (globalThis as Holder)[key] = runtime;
}
