import { z } from 'zod';
import type { ToolSchema } from '@/lib/models/types';
import { asResult, isToolError, type Tool, type ToolDeps, type ToolResult } from './types';

/**
 * The tool registry: schemas for the model, and one safe way to run a call. Arguments are
 * model output, so they are parsed and validated with zod; every failure (bad JSON, invalid
 * arguments, unknown tool, a throw, a timeout) becomes an error result worded as advice.
 */

export type ToolRegistry = {
  tools: Tool[];
  schemas(): ToolSchema[];
  has(name: string): boolean;
  get(name: string): Tool | undefined;
  hasResearchTool(): boolean;
  run(name: string, rawArgs: string, deps: ToolDeps, signal: AbortSignal): Promise<ToolResult>;
};

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((i) => `${i.path.length ? i.path.join('.') : 'arguments'}: ${i.message}`)
    .join('; ');
}

export function createToolRegistry(tools: Tool[]): ToolRegistry {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const schemas = tools
    .slice()
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => {
      const { $schema: _ignored, ...parameters } = t.jsonSchema ?? (z.toJSONSchema(t.params, { io: 'input' }) as Record<string, unknown>);
      return { type: 'function' as const, function: { name: t.name, description: t.description, parameters } };
    });

  return {
    tools,
    schemas: () => schemas,
    has: (name) => byName.has(name),
    get: (name) => byName.get(name),
    hasResearchTool: () => tools.some((t) => t.research),
    async run(name, rawArgs, deps, signal) {
      const tool = byName.get(name);
      if (!tool) {
        return { ok: false, error: `there is no tool called "${name}"; the tools are: ${[...byName.keys()].join(', ')}` };
      }
      let args: unknown;
      try {
        args = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
      } catch {
        return { ok: false, error: `the arguments were not valid JSON; call ${name} again with a JSON object` };
      }
      const parsed = tool.params.safeParse(args);
      if (!parsed.success) {
        return { ok: false, error: `invalid arguments for ${name}: ${describeIssues(parsed.error)}; fix them and call again` };
      }
      // A plain timer (not AbortSignal.timeout, whose timer does not keep the process alive).
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), tool.timeoutMs);
      const both = AbortSignal.any([signal, timeout.signal]);
      try {
        const data = await Promise.race([
          tool.run(parsed.data, deps, both),
          new Promise<never>((_, reject) => {
            // Stops waiting for a tool that ignores the signal; the catch below says why.
            const fail = () => reject(both.reason);
            if (both.aborted) fail();
            // a signal aborts once
            both.addEventListener('abort', fail, { once: true });
          }),
        ]);
        return asResult(data);
      } catch (err) {
        if (signal.aborted) throw err;
        // Whichever rejected first (the tool on its signal, or the wait), a spent timer is the reason.
        if (timeout.signal.aborted)
          return { ok: false, error: `${name} took longer than ${tool.timeoutMs / 1000} s and was stopped; answer with what you have` };
        if (isToolError(err)) return { ok: false, error: err.message };
        return {
          ok: false,
          error: `${name} failed unexpectedly (${(err as Error)?.message ?? String(err)}); answer with what you have and say so`,
        };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Caps a result's JSON at maxBytes while keeping it valid JSON, with a truncation mark. */
export function capResultJson(value: unknown, maxBytes = 14_000): string {
  const full = JSON.stringify(value) ?? 'null';
  if (Buffer.byteLength(full) <= maxBytes) return full;
  for (const limit of [4000, 2000, 1000, 500, 200, 80]) {
    const shrunk = shrinkStrings(value, limit);
    const text = JSON.stringify(markTruncated(shrunk));
    if (Buffer.byteLength(text) <= maxBytes) return text;
  }
  const partial = full.slice(0, Math.floor(maxBytes / 2));
  return JSON.stringify({ truncated: true, note: 'The result was too large and was cut.', partial });
}

function shrinkStrings(value: unknown, limit: number, depth = 0): unknown {
  if (typeof value === 'string') return value.length > limit ? `${value.slice(0, limit)}…[cut]` : value;
  if (depth > 20) return null;
  if (Array.isArray(value)) return value.slice(0, Math.max(5, Math.floor(limit / 20))).map((v) => shrinkStrings(v, limit, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrinkStrings(v, limit, depth + 1)]));
  }
  return value;
}

function markTruncated(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) return { ...(value as object), truncated: true };
  return { truncated: true, value };
}
