import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfig } from './config';
import { knownSecrets, maskSecrets } from './secrets';

/**
 * The user's MCP servers, connected with the official SDK: each in the background at start
 * and when its entry changes; one that fails to start, exits or drops its connection is tried
 * again with backoff (1 s, doubling, at most a minute); `notifications/tools/list_changed` is
 * followed; stdio servers stop with Hearth (close()). Listeners hear every change of state or
 * tools, so the tool set is rebuilt from what is ready.
 */

export type McpToolInfo = {
  server: string;
  name: string;
  description: string;
  inputSchema: unknown;
  /** The server says the tool changes nothing (annotations.readOnlyHint). */
  readOnly: boolean;
};

export type ServerState = 'off' | 'connecting' | 'ready' | 'failed';

export type ServerStatus = {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  state: ServerState;
  error?: string;
  /** The last lines a stdio server wrote to stderr. */
  log: string[];
  tools: McpToolInfo[];
};

type Live = {
  config: ServerConfig;
  status: ServerStatus;
  client?: Client;
  transport?: Transport;
  attempts: number;
  retry?: NodeJS.Timeout;
  /** Set when Hearth itself closes it: no retry. */
  closing: boolean;
  generation: number;
};

const LOG_LINES = 20;

/** The stdio servers' processes, killed when Hearth exits however it exits (they are its children). */
const children = new Set<number>();
let exitHook = false;
function stopChildrenOnExit() {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const pid of children) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });
}

export type HubOptions = {
  /** Backoff before the first retry (doubling up to retryMaxMs). */
  retryMs?: number;
  retryMaxMs?: number;
  /** How long connecting (and listing tools) may take. */
  connectTimeoutMs?: number;
  log?: (message: string) => void;
};

export class McpHub {
  private readonly live = new Map<string, Live>();
  private readonly listeners = new Set<() => void>();
  private closed = false;

  constructor(private readonly options: HubOptions = {}) {}

  /** Servers now, in the order of the file. */
  statuses(): ServerStatus[] {
    return [...this.live.values()].map((l) => ({ ...l.status, log: [...l.status.log], tools: [...l.status.tools] }));
  }

  /** The tools of every ready server. */
  tools(): McpToolInfo[] {
    return [...this.live.values()].flatMap((l) => (l.status.state === 'ready' ? l.status.tools : []));
  }

  /** Whether a server is still making its first connection. */
  get connecting(): boolean {
    return [...this.live.values()].some((l) => l.status.state === 'connecting' && l.attempts === 0);
  }

  /** Resolves once no server is making its first connection, or after `ms`. */
  settled(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (!this.connecting) return resolve();
      const timer = setTimeout(done, ms);
      timer.unref?.();
      const off = this.onChange(() => {
        if (!this.connecting) done();
      });
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Makes the servers these entries describe: new and changed ones (re)connect, removed ones stop. */
  apply(configs: Map<string, ServerConfig>): void {
    if (this.closed) return;
    for (const [name, live] of this.live) {
      const next = configs.get(name);
      if (!next || JSON.stringify(next) !== JSON.stringify(live.config)) void this.stop(name);
    }
    for (const [name, config] of configs) {
      if (this.live.has(name)) continue;
      const transport = config.command ? 'stdio' : 'http';
      const live: Live = {
        config,
        status: { name, transport, state: config.hearth?.disabled ? 'off' : 'connecting', log: [], tools: [] },
        attempts: 0,
        closing: false,
        generation: 0,
      };
      this.live.set(name, live);
      if (!config.hearth?.disabled) void this.connect(name, live);
    }
    this.changed();
  }

  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<CallToolResult> {
    const live = this.live.get(server);
    if (!live?.client || live.status.state !== 'ready') {
      throw new Error(`the tool server "${server}" is not running${live?.status.error ? ` (${live.status.error})` : ''}`);
    }
    return (await live.client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: timeoutMs })) as CallToolResult;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.live.keys()].map((name) => this.stop(name)));
  }

  private changed() {
    for (const l of this.listeners) {
      try {
        l();
      } catch (err) {
        this.options.log?.(`mcp: a listener failed: ${(err as Error).message}`);
      }
    }
  }

  private stop(name: string): Promise<void> {
    const live = this.live.get(name);
    this.live.delete(name);
    if (!live) return Promise.resolve();
    live.closing = true;
    if (live.retry) clearTimeout(live.retry);
    return (live.client?.close() ?? live.transport?.close() ?? Promise.resolve()).catch(() => undefined);
  }

  private async connect(name: string, live: Live): Promise<void> {
    const generation = ++live.generation;
    const current = () => this.live.get(name) === live && live.generation === generation && !live.closing;
    live.status = { ...live.status, state: 'connecting', error: undefined };
    try {
      const { client, transport } = await this.open(name, live);
      if (!current()) {
        await client.close().catch(() => undefined);
        return;
      }
      live.client = client;
      live.transport = transport;
      live.status = { ...live.status, state: 'ready', tools: await this.listTools(name, client) };
      live.attempts = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        if (!current()) return;
        try {
          live.status = { ...live.status, tools: await this.listTools(name, client) };
        } catch (err) {
          this.options.log?.(`mcp ${name}: could not list its tools again: ${(err as Error).message}`);
        }
        this.changed();
      });
      client.onclose = () => {
        if (!current()) return;
        this.failed(name, live, 'the server closed the connection (it may have exited)');
      };
      this.changed();
    } catch (err) {
      if (!current()) return;
      this.failed(name, live, (err as Error).message || String(err));
    }
  }

  private failed(name: string, live: Live, error: string) {
    live.client = undefined;
    live.transport = undefined;
    live.status = { ...live.status, state: 'failed', error, tools: [] };
    this.options.log?.(`mcp ${name}: ${error}`);
    const base = this.options.retryMs ?? 1000;
    const wait = Math.min(this.options.retryMaxMs ?? 60_000, base * 2 ** live.attempts++);
    live.retry = setTimeout(() => {
      if (this.live.get(name) === live && !live.closing) void this.connect(name, live);
    }, wait);
    live.retry.unref?.();
    this.changed();
  }

  private async open(name: string, live: Live): Promise<{ client: Client; transport: Transport }> {
    const { config } = live;
    const timeout = this.options.connectTimeoutMs ?? 30_000;
    const client = () => new Client({ name: 'hearth', version: '0.1.0' }, { capabilities: {} });
    if (config.command) {
      const transport = new StdioClientTransport({
        command: config.command,
        args: config.args ?? [],
        env: { ...getDefaultEnvironment(), ...config.env },
        cwd: config.cwd,
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk: Buffer) => {
        const lines = chunk
          .toString('utf8')
          .split(/\r?\n/)
          .filter((l) => l.trim());
        // Shown in the page: every secret of the server, and anything shaped like one, masked.
        const known = knownSecrets(config);
        live.status.log = [...live.status.log, ...lines.map((l) => maskSecrets(l, known).slice(0, 500))].slice(-LOG_LINES);
      });
      const c = client();
      await c.connect(transport, { timeout });
      const pid = transport.pid;
      if (pid) {
        stopChildrenOnExit();
        children.add(pid);
        const prev = transport.onclose;
        transport.onclose = () => {
          children.delete(pid);
          prev?.();
        };
      }
      return { client: c, transport };
    }
    const url = new URL(config.url!);
    const requestInit = { headers: config.headers ?? {} };
    try {
      const transport = new StreamableHTTPClientTransport(url, { requestInit });
      const c = client();
      await c.connect(transport, { timeout });
      live.status.transport = 'http';
      return { client: c, transport };
    } catch (first) {
      // An older server speaks the SSE transport (2024-11-05); try it before giving up.
      try {
        const transport = new SSEClientTransport(url, { requestInit });
        const c = client();
        await c.connect(transport, { timeout });
        live.status.transport = 'sse';
        return { client: c, transport };
      } catch {
        throw first;
      }
    }
  }

  private async listTools(name: string, client: Client): Promise<McpToolInfo[]> {
    const out: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const res = await client.listTools(cursor ? { cursor } : undefined);
      for (const t of res.tools) {
        out.push({
          server: name,
          name: t.name,
          description: (t.description ?? t.title ?? '').slice(0, 2000),
          inputSchema: t.inputSchema,
          readOnly: t.annotations?.readOnlyHint === true,
        });
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return out;
  }
}
