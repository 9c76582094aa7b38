import path from 'node:path';
import { HearthError } from '@/lib/errors';
import { readMcpConfig, SERVER_NAME, serverConfigOrThrow, writeMcpConfig, type ServerConfig } from '@/lib/mcp/config';
import { McpHub } from '@/lib/mcp/hub';
import { maskServer, restoreSecrets } from '@/lib/mcp/secrets';
import type { ToolServersView } from '@/lib/contract/responses';
import { approvalOf, mcpToolName, mcpTools } from '@/lib/tools/mcp';
import type { Tool } from '@/lib/tools/types';

/**
 * The user's MCP servers as Hearth keeps them: the mcp.json file (HEARTH_MCP_CONFIG, default
 * DATA_DIR/mcp.json) is the record, read at start and written back when the Settings page adds,
 * changes, switches off or removes a server; the hub holds the connections; the tools of the
 * ready servers join each turn's tool set. Secrets (env, headers) leave only masked.
 */

export class ToolServers {
  readonly hub: McpHub;
  private servers = new Map<string, ServerConfig>();
  private rest: Record<string, unknown> = {};
  private problems: { name: string; error: string }[] = [];

  constructor(
    readonly file: string,
    options: { log?: (m: string) => void; retryMs?: number } = {},
  ) {
    this.hub = new McpHub({ log: options.log, retryMs: options.retryMs });
    const read = readMcpConfig(file);
    this.servers = read.servers;
    this.rest = read.rest;
    this.problems = read.problems;
    for (const p of read.problems) options.log?.(`mcp: ${path.basename(file)}: ${p.name}: ${p.error}`);
    this.hub.apply(this.servers);
  }

  /** The tools of the ready servers as Hearth tools, and those left out with the reason. */
  private made() {
    return mcpTools(this.hub.tools(), this.servers, (s, t, a, signal, ms) => this.hub.callTool(s, t, a, signal, ms));
  }

  tools(): Tool[] {
    return this.made().tools;
  }

  list(): ToolServersView {
    const problem = new Map(this.made().problems.map((p) => [`${p.server}\0${p.tool}`, p.reason]));
    const statuses = new Map(this.hub.statuses().map((s) => [s.name, s]));
    return {
      file: this.file,
      problems: this.problems,
      servers: [...this.servers].map(([name, config]) => {
        const status = statuses.get(name) ?? { name, transport: config.command ? 'stdio' : 'http', state: 'off', log: [], tools: [] };
        return {
          name,
          config: maskServer(config),
          status: {
            ...status,
            tools: status.tools.map((t) => ({
              name: t.name,
              modelName: mcpToolName(name, t.name),
              description: t.description,
              readOnly: t.readOnly,
              approval: approvalOf(t, config),
              enabled: !config.hearth?.disabledTools?.includes(t.name),
              ...(problem.has(`${name}\0${t.name}`) ? { problem: problem.get(`${name}\0${t.name}`) } : {}),
            })),
          },
        };
      }),
    };
  }

  /**
   * Adds or changes a server (a masked secret left as it was keeps the stored one while the
   * server is the same), and writes the file. A server that runs a program is added or changed
   * here only where `programs` allows it (a password is set): without one, any account on this
   * machine reaches the API as the owner, so such servers are written in mcp.json by hand.
   */
  put(name: string, entry: unknown, { programs = true }: { programs?: boolean } = {}): void {
    if (!SERVER_NAME.test(name)) throw new HearthError('bad_request', 'name: letters, digits, - and _ (at most 40)');
    const previous = this.servers.get(name);
    const next = restoreSecrets(serverConfigOrThrow(entry), previous);
    if (!programs && next.command && !sameProgram(next, previous)) {
      throw new HearthError(
        'forbidden',
        `A tool server that runs a program is added or changed only in ${this.file} while Hearth has no password: without one, anyone with an account on this machine could use this page to run a command as you. Edit that file (Hearth reads it at start), or set HEARTH_PASSWORD to manage such servers here.`,
      );
    }
    this.servers = new Map(this.servers).set(name, next);
    this.save();
  }

  remove(name: string): boolean {
    if (!this.servers.has(name)) return false;
    const next = new Map(this.servers);
    next.delete(name);
    this.servers = next;
    this.save();
    return true;
  }

  /** "Always allow this tool" from an approval card: the tool runs without asking from now on. */
  allowAlways(server: string, modelName: string): void {
    const config = this.servers.get(server);
    const info = this.hub.tools().find((t) => t.server === server && mcpToolName(server, t.name) === modelName);
    if (!config || !info) return;
    this.put(server, { ...config, hearth: { ...config.hearth, approval: { ...config.hearth?.approval, [info.name]: 'auto' } } });
  }

  close(): Promise<void> {
    return this.hub.close();
  }

  private save() {
    writeMcpConfig(this.file, this.servers, this.rest);
    this.hub.apply(this.servers);
  }
}

/** The same program with the same arguments, environment and folder: only Hearth's own keys (approvals, switches) differ. */
function sameProgram(next: ServerConfig, previous: ServerConfig | undefined): boolean {
  if (!previous?.command) return false;
  const program = (s: ServerConfig) => JSON.stringify([s.command, s.args ?? [], s.env ?? {}, s.cwd ?? null]);
  return program(next) === program(previous);
}
