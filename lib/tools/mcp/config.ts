import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { HearthError } from '@/lib/shared/errors';
import { issueInWords, issuePath } from '@/lib/shared/zod-issue';

/**
 * The user's MCP servers, in the mcp.json format Claude Desktop, Cursor and LM Studio use:
 *
 *   {"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]},
 *                   "home":  {"url": "http://127.0.0.1:8123/mcp", "headers": {"Authorization": "Bearer …"}}}}
 *
 * `command`, `args`, `env`, `cwd` start a stdio server; `url` and `headers` reach a Streamable
 * HTTP server (or an older SSE one). Hearth's own keys sit beside them, under `hearth`, so the
 * file stays readable by the other apps: whether the server is switched off, which of its tools
 * are, each tool's approval (auto, ask, never), and whether its tools look things up (the gate
 * may send a turn back to research with them).
 */

/** Server names become part of tool names: letters, digits, - and _ (as other apps allow). */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

export const approvalSchema = z.enum(['auto', 'ask', 'never']);
export type Approval = z.infer<typeof approvalSchema>;

const hearthSchema = z
  .object({
    disabled: z.boolean().optional(),
    /** Tools switched off, by their name on the server. */
    disabledTools: z.array(z.string().max(200)).max(500).optional(),
    /** Each tool's approval by its name on the server; a tool not named here follows its readOnlyHint. */
    approval: z.record(z.string().max(200), approvalSchema).optional(),
    /** Its tools find current information: the gate may answer a deferral with them. */
    source: z.boolean().optional(),
  })
  .strict();

const stringMap = z.record(z.string().max(200), z.string().max(10_000));

export const serverSchema = z
  .object({
    command: z.string().trim().min(1).max(1000).optional(),
    args: z.array(z.string().max(10_000)).max(200).optional(),
    env: stringMap.optional(),
    cwd: z.string().max(4000).optional(),
    url: z
      .string()
      .trim()
      .max(2000)
      .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
      .optional(),
    headers: stringMap.optional(),
    /** What other apps write here (type, disabled, …) is kept as it is. */
    type: z.string().max(50).optional(),
    hearth: hearthSchema.optional(),
  })
  .passthrough()
  .refine((s) => Boolean(s.command) || Boolean(s.url), 'give a "command" that starts the server (stdio) or the "url" it answers at (HTTP)')
  .refine((s) => !(s.command && s.url), 'give a "command" or a "url", not both');

export type ServerConfig = z.infer<typeof serverSchema>;

/** An imported file's tool server waits as a proposal under this key prefix and its name (lib/services/tool-servers.ts). */
export const TOOL_SERVER_PROPOSAL = 'tool_server:';

const fileSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()).default({}) }).passthrough();

export type McpFile = { servers: Map<string, ServerConfig>; problems: { name: string; error: string }[]; rest: Record<string, unknown> };

/** The config file, read; a server whose entry is broken is reported, not fatal to the others. */
export function readMcpConfig(file: string): McpFile {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { servers: new Map(), problems: [], rest: {} };
    return {
      servers: new Map(),
      problems: [{ name: path.basename(file), error: `cannot be read as JSON: ${(err as Error).message}` }],
      rest: {},
    };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success)
    return { servers: new Map(), problems: [{ name: path.basename(file), error: 'has no "mcpServers" object' }], rest: {} };
  const { mcpServers, ...rest } = parsed.data;
  const servers = new Map<string, ServerConfig>();
  const problems: McpFile['problems'] = [];
  for (const [name, entry] of Object.entries(mcpServers)) {
    if (!SERVER_NAME.test(name)) {
      problems.push({ name, error: 'a server name is letters, digits, - and _ (at most 40)' });
      continue;
    }
    const server = serverSchema.safeParse(entry);
    if (server.success) servers.set(name, server.data);
    else problems.push({ name, error: server.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; ') });
  }
  return { servers, problems, rest };
}

/** Writes the servers back, keeping what else the file held; atomically (a crash leaves the old file). */
export function writeMcpConfig(file: string, servers: Map<string, ServerConfig>, rest: Record<string, unknown> = {}): void {
  const text = `${JSON.stringify({ ...rest, mcpServers: Object.fromEntries(servers) }, null, 2)}\n`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  // The file holds secrets (env, headers): readable by its owner only.
  fs.writeFileSync(tmp, text, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** A server's entry from the page, or a 400 in the page's words: the entry box is marked (field "server"). */
export function serverConfigOrThrow(entry: unknown): ServerConfig {
  const parsed = serverSchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? `The entry's "${issuePath(issue)}"` : 'The entry';
    throw new HearthError('bad_request', `${where}: ${issueInWords(issue)}.`, { field: 'server' });
  }
  return parsed.data;
}
