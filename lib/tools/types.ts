import { z } from 'zod';
import { brand, isBranded } from '@/lib/shared/errors';
import type { Awaitable } from '@/lib/shared/awaitable';
import type { AttachedTable } from './query-table';
import type { DocumentSearch } from './search-documents';

/**
 * A tool: a name, a description written for a small model, zod parameters (sent as JSON
 * schema), and run(args, deps, signal) returning JSON-able data or {error}. Tools never
 * throw out of a turn: the registry turns every failure into an error result worded as
 * advice to the model.
 */

/** An image a tool gave back: base64 bytes and their type (an MCP server's image content). */
export type ToolImage = { mime: string; data: string };

export type ToolResult = { ok: true; data: unknown; images?: ToolImage[] } | { ok: false; error: string };

/**
 * What a tool returns when it has images beside its data: the data goes to the model as the
 * result, the images as image parts where the model sees images. Recognised by value (the key).
 */
export type ToolOutput = { toolOutputWithImages: true; data: unknown; images: ToolImage[] };
export const withImages = (data: unknown, images: ToolImage[]): ToolOutput => ({ toolOutputWithImages: true, data, images });
const isToolOutput = (v: unknown): v is ToolOutput =>
  typeof v === 'object' && v !== null && (v as { toolOutputWithImages?: unknown }).toolOutputWithImages === true;
/** A tool's return value as a result: its data, and its images when it has some. */
export function asResult(value: unknown): Extract<ToolResult, { ok: true }> {
  return isToolOutput(value) ? { ok: true, data: value.data, images: value.images } : { ok: true, data: value };
}

export type ToolDeps = {
  now: () => number;
  timezone: string;
  threadId: string;
  /** Searches earlier conversations, best first (the library's full-text index in the app, scripted in tests). */
  searchConversations?: (args: { query: string; limit: number; excludeThreadId?: string }) => Promise<ConversationHit[]>;
  fetch?: typeof fetch;
  /** A file attached in this conversation (never another's), by its id. */
  attachmentText?: (id: string) => Awaitable<AttachmentText | undefined>;
  /** An attached file's table (read into one the first time it is asked for), by its id; undefined: no such file here. */
  attachmentTable?: (id: string) => Promise<AttachedTable | undefined>;
  /** What Hearth remembers about the user (lib/services/memories.ts). */
  memory?: MemoryBook;
  /** The knowledge collections this thread uses, and a search over them (lib/data/knowledge). */
  documents?: DocumentSearch;
};

/** Memory facts, with the Memory panel's rules; a refusal is a HearthError 'refused' with the reason. */
export type MemoryBook = {
  list(): Awaitable<{ id: string; text: string }[]>;
  add(text: string): Awaitable<{ id: string; text: string }>;
  edit(id: string, text: string): Awaitable<{ id: string; text: string }>;
  forget(id: string): Awaitable<void>;
};

/** Where a file's whole text is: a file on disk, or (attached before files were kept) the text stored with it. */
export type AttachmentText = { name: string; path: string | null; text: string; chars: number; lines: number };

export type ConversationHit = {
  threadId: string;
  title: string;
  /** Null for a thread found by its title. */
  role: 'user' | 'assistant' | null;
  /** The part of the message around what matched. */
  excerpt: string;
  createdAt: number;
  /** The other side of the exchange (the reply to a question, the question of a reply). */
  other?: string;
};

export type Tool<P extends z.ZodType = z.ZodType> = {
  name: string;
  description: string;
  params: P;
  /** Fuel one run costs (the turn budget). */
  cost: number;
  timeoutMs: number;
  /** A research tool finds current facts; with none available the gate never sends a turn back to research. */
  research?: boolean;
  /** The JSON schema the model is sent, when the tool brings its own (an MCP server's); `params` then checks the shape only. */
  jsonSchema?: Record<string, unknown>;
  /**
   * Whether the user must allow a call first: `ask` pauses the turn until they answer,
   * `never` refuses it. Hearth's own tools change nothing outside Hearth and run at once.
   */
  approval?: 'auto' | 'ask' | 'never';
  /** Where the tool comes from, for the page (an MCP server's name). */
  source?: string;
  run(args: z.infer<P>, deps: ToolDeps, signal: AbortSignal): Promise<unknown>;
};

/** A failure the tool reports to the model as advice, not a crash. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    brand(this, 'ToolError');
  }
}

/** Recognised by brand, not class identity (see lib/shared/errors.ts). */
export const isToolError = (err: unknown): err is ToolError => isBranded(err, 'ToolError');

export function defineTool<P extends z.ZodType>(tool: Tool<P>): Tool<P> {
  return tool;
}
