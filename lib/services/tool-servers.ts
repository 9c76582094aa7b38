import type { Port } from '@/lib/shared/awaitable';
import path from 'node:path';
import { HearthError } from '@/lib/shared/errors';
import {
  readMcpConfig,
  SERVER_NAME,
  serverConfigOrThrow,
  serverSchema,
  TOOL_SERVER_PROPOSAL,
  writeMcpConfig,
  type ServerConfig,
} from '@/lib/tools/mcp/config';
import { McpHub } from '@/lib/tools/mcp/hub';
import { MASK, maskServer, restoreSecrets } from '@/lib/tools/mcp/secrets';
import type { ToolServersView } from '@/lib/contract/responses';
import { approvalOf, mcpToolName, mcpTools } from '@/lib/tools/mcp';
import type { Tool } from '@/lib/tools/types';

/**
 * The user's MCP servers as Hearth keeps them: the mcp.json file (HEARTH_MCP_CONFIG, default
 * DATA_DIR/mcp.json) is the record, read at start and written back when the Settings page adds,
 * changes, switches off or removes a server; the hub holds the connections; the tools of the
 * ready servers join each turn's tool set. Secrets (env, headers) leave only masked.
 */

/** Where an imported file's proposals wait (the settings' proposals table, under TOOL_SERVER_PROPOSAL). */
export type ToolServerProposals = Port<{
  settingProposals(): { key: string; value: unknown; proposedAt: number }[];
  dismissProposals(keys: string[]): void;
}>;

export class ToolServers {
  readonly hub: McpHub;
  private servers = new Map<string, ServerConfig>();
  private rest: Record<string, unknown> = {};
  private problems: { name: string; error: string }[] = [];
  private readonly proposalStore: ToolServerProposals | undefined;

  constructor(
    readonly file: string,
    options: { log?: (m: string) => void; retryMs?: number; proposals?: ToolServerProposals } = {},
  ) {
    this.proposalStore = options.proposals;
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

  async list(): Promise<ToolServersView> {
    const problem = new Map(this.made().problems.map((p) => [`${p.server}\0${p.tool}`, p.reason]));
    const statuses = new Map(this.hub.statuses().map((s) => [s.name, s]));
    return {
      file: this.file,
      problems: this.problems,
      proposals: (await this.proposals()).map(({ name, server }) => ({ name, config: maskServer(server) })),
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

  /** The servers as the library file carries them: every secret masked, so none leaves in an export. */
  forExport(): { name: string; server: ServerConfig }[] {
    return [...this.servers].map(([name, server]) => ({ name, server: maskServer(server) }));
  }

  /** Servers imported files proposed that the owner has not added or dismissed, each as its file had it. */
  private async proposals(): Promise<{ name: string; server: ServerConfig }[]> {
    const out: { name: string; server: ServerConfig }[] = [];
    for (const p of (await this.proposalStore?.settingProposals()) ?? []) {
      if (!p.key.startsWith(TOOL_SERVER_PROPOSAL)) continue;
      const name = p.key.slice(TOOL_SERVER_PROPOSAL.length);
      const server = serverSchema.safeParse(p.value);
      if (SERVER_NAME.test(name) && server.success) out.push({ name, server: server.data });
    }
    return out;
  }

  /**
   * The owner's word on proposed servers: one added is written to mcp.json as the file had it,
   * switched off while a secret in it is still masked (the owner types the secrets in, then
   * switches it on); a program to run is added only where `programs` allows, as through put.
   */
  async decideProposals(
    { apply = [], dismiss = [] }: { apply?: string[]; dismiss?: string[] },
    { programs = true }: { programs?: boolean } = {},
  ) {
    const open = new Map((await this.proposals()).map((p) => [p.name, p.server]));
    const missing = [...apply, ...dismiss].filter((n) => !open.has(n));
    if (missing.length) throw new HearthError('not_found', `No imported tool server waits under the name ${missing.join(', ')}.`);
    const program = apply.find((name) => open.get(name)!.command);
    if (program !== undefined && !programs) {
      throw new HearthError(
        'forbidden',
        `${program} runs a program: while Hearth has no password, such a server is added only in ${this.file} (anyone with an account on this machine could add one here). Set HEARTH_PASSWORD to add it from this page.`,
      );
    }
    for (const name of apply) {
      const server = open.get(name)!;
      const masked = JSON.stringify(server).includes(MASK);
      const next: ServerConfig = masked ? { ...server, hearth: { ...server.hearth, disabled: true } } : server;
      this.servers = new Map(this.servers).set(name, next);
    }
    if (apply.length) this.save();
    await this.proposalStore?.dismissProposals([...apply, ...dismiss].map((n) => `${TOOL_SERVER_PROPOSAL}${n}`));
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
