import 'server-only';
import { FileStore, type FileKind } from '@/lib/data/file-store';
import { ensureTable } from '@/lib/data/tables/attached';
import { openLibrary, openLibraryBeside, openSignals } from '@/db/open';
import { createAuth, type Auth } from '@/lib/services/auth/auth';
import { installSessionCheck, requestPerson } from '@/lib/services/auth/session-check';
import { MAIN_LIBRARY, type Person } from '@/lib/services/auth/people';
import type { Store } from '@/db/store';
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
import type { Signals } from '@/lib/turns/supervisor/cluster';
import { BackgroundTitles } from '@/lib/turns/supervisor/titles';
import { memoryBook } from './memories';
import { PersonalSettings, SettingsService, type SettingsLink } from './settings';
import { admitTurn, dayIn, fuelFor } from './usage';
import type { SettingKey, Settings } from '@/lib/services/settings-values';
import { ChangeFeed } from './change-feed';
import { ToolServers } from './tool-servers';
import { Knowledge } from './knowledge';
import { documentsWithShared, type SharedCollection } from './shared-collections';
import { mayChoose } from './models';
import path from 'node:path';

/**
 * The composition root: the one place that wires the databases, the model client, the tools
 * and the turn supervisors together. Route handlers and instrumentation ask for it; everything
 * in lib/ below it takes its dependencies as arguments. It lives on globalThis because Next
 * bundles each route separately and they must share one registry.
 *
 * Each person's library is a database of its own (the first person's is the main one, where the
 * library from before accounts already is; everyone after has people/<id>.db), with its own
 * turn supervisor, knowledge indexer, memory and change feed over it. The model servers, their
 * slots, the settings, the tool servers and the file store are shared. Keeping people apart is
 * so structural: a query has no way to reach a row of another person's library.
 */

/**
 * Hearth as a whole: what every person shares (the configuration, the file store, the model
 * servers, the settings the owner decides, logins, the tool servers) and each person's library.
 */
export type Hearth = {
  config: Config;
  /** The attached files on disk (DATA_DIR/files), by content hash: a person reaches one only through their own library's rows. */
  files: FileStore;
  /** The model servers of the settings in force (a new pool when the Settings page changes them). */
  readonly models: ModelPool;
  settings: SettingsService;
  auth: Auth;
  /** The user's MCP servers (mcp.json), their connections and tools. */
  toolServers: ToolServers;
  /** A remote image from model output, fetched once the user clicked to load it (lib/tools/remote-image.ts). */
  remoteImage(url: string, signal: AbortSignal): Promise<{ type: string; bytes: Buffer }>;
  /**
   * A person's Hearth: the shared parts with their own library (opened the first time it is
   * asked for). This is the only way to a library: a route is handed the one of the person its
   * request is (lib/http/serve.ts), so no route can read another person's data.
   */
  as(person: Person): Promise<Runtime>;
  /** The libraries open now. */
  libraries(): Runtime[];
  /** Opens everyone's library (at start, so each person's unfinished turns resume). */
  openAll(): Promise<Runtime[]>;
  /** The knowledge collections the owner and admins shared with everyone, each with its library's knowledge. */
  sharedCollections(): Promise<(SharedCollection & { library: Runtime })[]>;
  /**
   * Several processes on one PostgreSQL database: how this one reaches the others (turns' events,
   * stops, approvals, hand-overs, the change feed; lib/turns/supervisor/cluster.ts). Unset on SQLite.
   */
  signals?: Signals;
};

/** One person's Hearth: the shared parts, and their library: its store, turns, knowledge, tools and change feed. */
export type Runtime = Omit<Hearth, 'as' | 'libraries' | 'openAll' | 'settings' | 'sharedCollections' | 'signals'> & {
  hearth: Hearth;
  person: Person;
  /** The household's settings with this person's own over them (lib/services/settings.ts). */
  settings: PersonalSettings;
  store: Store;
  turns: TurnSupervisor;
  updates: ChangeFeed;
  /** Knowledge collections: their indexing in the background and their search. */
  knowledge: Knowledge;
  /** The tools this person's turns are offered now (Hearth's own and the ready MCP servers'). */
  readonly tools: ToolSet;
  /** Collections others shared with everyone (read-only here); never this person's own. */
  sharedWithMe(): Promise<SharedCollection[]>;
};

/** How often new messages are embedded when past conversations are searched by meaning. */
const MESSAGE_EMBED_EVERY_MS = 20_000;

const key = Symbol.for('hearth.runtime');
type Holder = { [key]?: Promise<Hearth> };

/**
 * `model` stands in for the servers of LLAMA_URL (tests hand in a scripted one); `now` for the
 * clock (the identity block carries the hour, so a test of the prompt's prefix fixes it); `log`
 * for the server's log (stderr; tests keep what they expect to hear out of their output).
 */
export async function buildHearth(
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
): Promise<Hearth> {
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
        // Several processes on one database: one slot queue for all of them, kept in the database.
        ...(signals ? { shared: { store, signals, leaseMs: config.HEARTH_TURN_LEASE_MS, now } } : {}),
      },
    );
  const files = FileStore.of(config.DATA_DIR);
  const signals = await openSignals(store.place, { log });
  // The user's MCP servers connect in the background; their tools join the set once ready.
  const toolServers = new ToolServers(config.HEARTH_MCP_CONFIG ?? path.join(config.DATA_DIR, 'mcp.json'), {
    log,
    proposals: store,
  });
  /** Bumped when the tools change (a setting they use, a tool server ready): each library makes its set again. */
  let toolsVersion = 0;
  /** The libraries open, by their file in DATA_DIR. */
  const open = new Map<string, Runtime>();
  /** The libraries being opened: two requests at once get the same one. */
  const opening = new Map<string, Promise<Runtime>>();
  const POOL_KEYS: SettingKey[] = ['modelServers', 'modelSlots', 'checksModel'];
  const TOOL_KEYS: SettingKey[] = ['searxngUrl', 'disabledTools', 'timezone', 'memory', 'memberDisabledTools', 'memberToolServers'];
  /** A library's settings among several processes: a change through one is read again by the others. */
  const settingsLink = (place: Store['place']): SettingsLink | undefined =>
    signals && place.engine === 'postgres'
      ? {
          send: () => signals.send({ kind: 'settings', library: place.schema }),
          listen: (heard) => signals.listen(place.schema, (signal) => (signal.kind === 'settings' || signal.kind === 'resync') && heard()),
        }
      : undefined;
  const settings: SettingsService = await SettingsService.open(
    config,
    store,
    (changed) => {
      if (changed.some((k) => POOL_KEYS.includes(k))) {
        // Turns under way finish on the pool they entered; new ones go to the new servers.
        const old = models;
        models = poolFor(settings.current());
        old.close();
      }
      if (changed.some((k) => TOOL_KEYS.includes(k))) toolsVersion++;
      // A new embeddings server or model: the indexer embeds everything again with it.
      if (changed.includes('embeddingsUrl') || changed.includes('embeddingsModel') || changed.includes('conversationsByMeaning'))
        for (const library of open.values()) library.knowledge.indexer.wake();
    },
    settingsLink(store.place),
  );
  // With past conversations searched by meaning, new messages are embedded every little while.
  setInterval(() => {
    if (settings.current().conversationsByMeaning) for (const library of open.values()) library.knowledge.indexer.wake();
  }, MESSAGE_EMBED_EVERY_MS).unref();
  let models = poolFor(settings.current());
  toolServers.hub.onChange(() => toolsVersion++);
  const auth = createAuth(config, store, now);
  // The proxy and the streaming routes check sessions through this gate (lib/services/auth/session-check.ts).
  installSessionCheck({
    required: auth.required,
    person: (token) => auth.sessions.person(token),
    owner: auth.owner,
    vouched: auth.vouched,
  });
  const imageDeps: WebDeps = {
    policy: { allowedPorts: config.FETCH_ALLOWED_PORTS, allowAddress },
    pacer: createHostPacer(store, now),
    now,
  };
  const shared = {
    config,
    files,
    get models() {
      return models;
    },
    settings,
    auth,
    toolServers,
    remoteImage: (url: string, signal: AbortSignal) => fetchRemoteImage(url, imageDeps, signal),
  };

  /** A person's library: their database (the main one for the first person), and what works over it. */
  const library = async (person: Person, file: string): Promise<Runtime> => {
    const own = file === MAIN_LIBRARY ? store : await openLibraryBeside(store.place, config, file);
    // Among several processes each library is known to the others by its schema.
    const cluster =
      signals && own.place.engine === 'postgres' ? { signals, library: own.place.schema, leaseMs: config.HEARTH_TURN_LEASE_MS } : undefined;
    const updates = new ChangeFeed(
      cluster && {
        send: (notice) => signals!.send({ kind: 'change', library: cluster.library, notice }),
        listen: (heard) => signals!.listen(cluster.library, (signal) => signal.kind === 'change' && heard(signal.notice)),
      },
    );
    const mine = await PersonalSettings.open(
      settings,
      config,
      own,
      file === MAIN_LIBRARY,
      () => runtime.person.role,
      settingsLink(own.place),
    );
    const memory = memoryBook({ store: own, updates });
    // Settings are read when the indexer asks.
    const knowledge = new Knowledge({ config, store: own, files, settings: () => settings.current(), log, batch: config.EMBEDDINGS_BATCH });
    // The tool schemas are computed when a set is made: once, and again when the tools, this
    // person's own settings or their role change.
    let toolSet: { version: string; set: ToolSet } | null = null;
    const tools = () => {
      const version = `${toolsVersion} ${mine.version} ${runtime.person.role}`;
      if (toolSet?.version !== version) {
        const s = mine.current();
        const member = runtime.person.role === 'member';
        toolSet = {
          version,
          set: createToolSet({
            config: { ...config, SEARXNG_URL: s.searxngUrl || undefined, HEARTH_TIMEZONE: s.timezone },
            store: own,
            files,
            now,
            memory,
            allowAddress,
            without: [
              ...(withoutTools ?? []),
              ...s.disabledTools,
              ...(member ? s.memberDisabledTools : []),
              ...(s.memory ? [] : ['remember']),
            ],
            // The tool servers reach what they reach as Hearth (the owner's files, a calendar): members' only when the owner says.
            extra: member && !s.memberToolServers ? [] : toolServers.tools(),
            documents: (threadId) => documentsWithShared(knowledge.forThread(threadId), () => runtime.sharedWithMe()),
          }),
        };
      }
      return toolSet.set;
    };
    const turns = new TurnSupervisor({
      store: own,
      models: () => models,
      tools,
      now,
      identity: () => {
        const s = mine.current();
        return {
          assistantName: s.assistantName,
          timezone: s.timezone,
          location: s.location || undefined,
          userName: s.userName,
          defaultInstructions: s.defaultInstructions,
          memory: s.memory,
        };
      },
      engine: async () => {
        const s = mine.current();
        return {
          maxRounds: s.maxRounds,
          budget: {
            ...fuelFor(await auth.people.limitsOf(runtime.person.id), s.turnFuel),
            modelCalls: s.turnModelCalls,
            modelCallCost: 100,
          },
          judgeEveryAnswer: s.judgeEveryAnswer,
        };
      },
      thinking: () => {
        const s = mine.current();
        return { mode: s.thinking, inHistory: s.thinkingInHistory };
      },
      titles:
        config.HEARTH_TITLES === 'model'
          ? new BackgroundTitles({
              store: own,
              models: { idle: () => models.idle() },
              onTitle: (id, title) => updates.publish({ type: 'thread', id, title }),
              log,
            })
          : undefined,
      tableOf: (f) => ensureTable(files, { ...f, kind: f.kind as FileKind }),
      imageData: ({ sha256, mime }) => {
        const bytes = files.read(sha256);
        return bytes ? `data:${mime};base64,${bytes.toString('base64')}` : undefined;
      },
      approvalTimeoutMs: config.HEARTH_APPROVAL_TIMEOUT_S * 1000,
      // "Always allow" changes mcp.json for everyone: a member's answer counts for this call only.
      allowAlways: (server, tool) => (runtime.person.role === 'member' ? undefined : toolServers.allowAlways(server, tool)),
      mayUse: (model) => mayChoose(runtime, model),
      // A thread's collections, with those shared with everyone (search_documents is offered when there are any).
      collections: async (threadId) => [
        ...(await own.collectionsOfThread({ threadId })),
        ...(await runtime.sharedWithMe()).map(({ id, name }) => ({ id, name })),
      ],
      // One person's library, one place in the round-robin of turns waiting for a slot.
      person: file,
      admit: async (running) =>
        admitTurn(await auth.people.limitsOf(runtime.person.id), await own.turnsOnDay(dayIn(settings.current().timezone, now())), running),
      cluster,
      used: ({ model, stats, now: at }) =>
        own.addUsage({
          day: dayIn(settings.current().timezone, at),
          model: model ?? '',
          turns: 1,
          promptTokens: stats.promptTokens,
          generatedTokens: stats.completionTokens,
          modelMs: Math.round(stats.modelMs),
        }),
      log,
    });
    // Indexing goes on where it stopped (files queued or half embedded when the server last stopped).
    knowledge.indexer.wake();
    const runtime: Runtime = {
      ...shared,
      get models() {
        return models;
      },
      hearth,
      person,
      settings: mine,
      store: own,
      turns,
      updates,
      knowledge,
      get tools() {
        return tools();
      },
      sharedWithMe: async () => (await hearth.sharedCollections()).filter((c) => c.library !== runtime),
    };
    return runtime;
  };

  const hearth: Hearth = {
    ...shared,
    signals,
    get models() {
      return models;
    },
    async as(person) {
      // By file: the one person of a Hearth without accounts and the owner made later are one library.
      const file = await auth.people.libraryOf(person.id);
      let found = open.get(file);
      if (!found) {
        let pending = opening.get(file);
        if (!pending) {
          pending = library(person, file)
            .then((made) => (open.set(file, made), made))
            .finally(() => opening.delete(file));
          opening.set(file, pending);
        }
        found = await pending;
      }
      // The same library, as the person is now (their role may have changed since it was opened).
      if (found.person.role !== person.role || found.person.username !== person.username) found.person = person;
      return found;
    },
    libraries: () => [...open.values()],
    async sharedCollections() {
      // Only the owner's and admins' libraries share: a member's collection is never offered, whatever its flag.
      const sharers = (await auth.people.list()).filter((p) => p.role !== 'member' && !p.disabled);
      const found = await Promise.all(
        sharers.map(async ({ id, username, role }) => {
          const library = await hearth.as({ id, username, role });
          return (await library.store.sharedCollections()).map((c) => ({
            ...c,
            sharedBy: username,
            knowledge: library.knowledge,
            library,
          }));
        }),
      );
      return found.flat();
    },
    async openAll() {
      const everyone = (await auth.people.list()).map(({ id, username, role }) => ({ id, username, role }));
      for (const person of everyone.length ? everyone : [await auth.owner()]) await hearth.as(person);
      return hearth.libraries();
    },
  };
  return hearth;
}

/** Hearth as a whole. A route reaches a library only as its request's person (lib/http/serve.ts). */
export function getRuntime(): Promise<Hearth> {
  const holder = globalThis as Holder;
  if (!holder[key]) {
    const config = getConfig();
    // A start that failed is tried again by the next request, as when it threw.
    holder[key] = openLibrary(config, MAIN_LIBRARY)
      .then((store) => buildHearth(config, store))
      .catch((err: unknown) => {
        delete holder[key];
        throw err;
      });
  }
  return holder[key];
}

/** Tests install a Hearth of their own (a temporary database, the double), or one person's view of it. */
export function setRuntime(runtime: Hearth | Runtime | undefined): void {
  (globalThis as Holder)[key] = runtime && Promise.resolve('hearth' in runtime ? runtime.hearth : runtime);
}

/** The one person of a Hearth without accounts (and the first owner's library): a test's runtime. */
export async function buildRuntime(...args: Parameters<typeof buildHearth>): Promise<Runtime> {
  const hearth = await buildHearth(...args);
  return hearth.as(await hearth.auth.owner());
}

/**
 * The settings a page shows to the person asking (their own over the household's): a page
 * component's way to them, as serve() is a route's. Before anyone is logged in (the proxy sent
 * the request on, so only a page open to all), the household's, without anyone's own.
 */
export async function settingsOfRequest(headers: Headers): Promise<Settings> {
  const hearth = await getRuntime();
  const person = await requestPerson(headers);
  return person ? (await hearth.as(person)).settings.current() : hearth.settings.defaultsForNobody();
}
