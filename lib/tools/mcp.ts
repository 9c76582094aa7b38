import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Approval, ServerConfig } from '@/lib/tools/mcp/config';
import type { McpToolInfo } from '@/lib/tools/mcp/hub';
import { reduceSchema } from '@/lib/tools/mcp/schema';
import { defineTool, ToolError, withImages, type Tool, type ToolImage } from './types';

/**
 * The user's MCP tools as Hearth tools: called through the same registry and loop as Hearth's
 * own (ledger, budget, timeout, parallel calls), named `<server>__<tool>` so two servers'
 * tools never collide, within the 64 characters a tool name may have. A tool whose schema
 * llama-server could not turn into a grammar is left out, with the reason (lib/tools/mcp/schema.ts).
 */

/** Fuel one MCP call costs (a web search costs 5, a model call 100). */
export const MCP_CALL_FUEL = 5;
/** How long one call may take. */
export const MCP_CALL_TIMEOUT_MS = 60_000;
/** Text of a result the model reads at most (the registry also caps the whole result). */
const RESULT_TEXT_CHARS = 12_000;
const NAME_MAX = 64;

/** A tool's name as the model sees it: the server's and the tool's, safe characters only, unique however long. */
export function mcpToolName(server: string, tool: string): string {
  const name = `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= NAME_MAX) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, NAME_MAX - 9)}_${hash}`;
}

/** A call's approval: the user's choice for the tool, else auto for a tool that says it changes nothing, ask for the rest. */
export function approvalOf(info: McpToolInfo, config: ServerConfig | undefined): Approval {
  return config?.hearth?.approval?.[info.name] ?? (info.readOnly ? 'auto' : 'ask');
}

/** A result as the model reads it: text, structured content, links and the names of images; an error result is the tool's error. */
export function readResult(server: string, result: CallToolResult): unknown {
  const text: string[] = [];
  const links: { uri: string; name?: string }[] = [];
  const images: string[] = [];
  const pictures: ToolImage[] = [];
  for (const part of result.content ?? []) {
    if (part.type === 'text') text.push(part.text);
    else if (part.type === 'image' || part.type === 'audio') {
      images.push(`${part.type} (${part.mimeType}, ${Math.round((part.data.length * 3) / 4 / 1024)} KB)`);
      if (part.type === 'image' && /^image\/(png|jpeg|webp|gif)$/.test(part.mimeType))
        pictures.push({ mime: part.mimeType, data: part.data });
    } else if (part.type === 'resource_link') links.push({ uri: part.uri, ...(part.name ? { name: part.name } : {}) });
    else if (part.type === 'resource') {
      const r = part.resource as { uri: string; text?: string; mimeType?: string };
      if (typeof r.text === 'string') text.push(`[${r.uri}]\n${r.text}`);
      else links.push({ uri: r.uri });
    }
  }
  const joined = text.join('\n\n');
  if (result.isError) throw new ToolError(`${server} reported an error: ${joined.slice(0, 2000) || 'no reason given'}`);
  const cut = joined.length > RESULT_TEXT_CHARS;
  const data = {
    // What a tool server returns is data, not instructions, like a fetched page.
    source: `the user's tool server "${server}"`,
    text: cut ? joined.slice(0, RESULT_TEXT_CHARS) : joined,
    ...(cut ? { note: `The result was cut at ${RESULT_TEXT_CHARS} characters.` } : {}),
    ...(result.structuredContent ? { structured: result.structuredContent } : {}),
    ...(links.length ? { links } : {}),
    ...(images.length ? { images: images.map((i) => `${i}: shown to a model that sees images, else only named here`) } : {}),
  };
  return pictures.length ? withImages(data, pictures) : data;
}

export type McpToolProblem = { server: string; tool: string; reason: string };

/** The tools of the ready servers, with those left out and why. */
export function mcpTools(
  infos: McpToolInfo[],
  configs: Map<string, ServerConfig>,
  call: (server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number) => Promise<CallToolResult>,
): { tools: Tool[]; problems: McpToolProblem[] } {
  const tools: Tool[] = [];
  const problems: McpToolProblem[] = [];
  for (const info of infos) {
    const config = configs.get(info.server);
    if (config?.hearth?.disabledTools?.includes(info.name)) continue;
    const reduced = reduceSchema(info.inputSchema);
    if (!reduced.ok) {
      problems.push({ server: info.server, tool: info.name, reason: reduced.reason });
      continue;
    }
    tools.push(
      defineTool({
        name: mcpToolName(info.server, info.name),
        description: `${info.description || info.name} (from the user's tool server "${info.server}")`.slice(0, 2000),
        params: z.record(z.string(), z.unknown()),
        jsonSchema: reduced.parameters,
        cost: MCP_CALL_FUEL,
        timeoutMs: MCP_CALL_TIMEOUT_MS,
        research: config?.hearth?.source === true,
        approval: approvalOf(info, config),
        source: info.server,
        async run(args, _deps, signal) {
          let result: CallToolResult;
          try {
            result = await call(info.server, info.name, args, signal, MCP_CALL_TIMEOUT_MS);
          } catch (err) {
            if (signal.aborted) throw err;
            throw new ToolError(`the tool server "${info.server}" did not answer: ${(err as Error).message}`);
          }
          return readResult(info.server, result);
        },
      }) as Tool,
    );
  }
  return { tools, problems };
}
