import type { z } from 'zod';
import {
  endpoints,
  pathOf,
  type AnswerOf,
  type BodyOf,
  type Endpoint,
  type Endpoints,
  type ParamsOf,
  type QueryOf,
} from '@/lib/contract/endpoints';
import type { ProposalsAction, Settings } from '@/lib/contract/settings';
import type { addAttachmentToCollectionBody, BulkThreadsBody } from '@/lib/contract/requests';
import type { Health, Rating, SearchFilters, StreamedEvent } from '@/lib/contract/responses';
import { readSse } from '@/lib/contract/sse';
import type { Role } from '@/lib/contract/statuses';

/** The browser's calls to Hearth's HTTP API. Errors carry the server's code and sentence. */

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    /** The field at fault, as a path into what was sent ("modelServers.0.url"), when the server names one. */
    readonly field?: string,
  ) {
    super(message);
  }
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** What a call over the endpoint table gives: its path parameters, query and JSON body, as the schemas take them in. */
type CallArgs<E extends Endpoint> = ([ParamsOf<E>] extends [never] ? unknown : { params: ParamsOf<E> }) &
  ([QueryOf<E>] extends [never] ? unknown : { query?: QueryOf<E> }) &
  ([BodyOf<E>] extends [never] ? unknown : { body: BodyOf<E> }) & { signal?: AbortSignal };

function failure(res: { status: number }, body: unknown): ApiError {
  const error = (body as { error?: { code?: string; message?: string; field?: string } } | null)?.error;
  return new ApiError(error?.code ?? 'http_error', error?.message ?? `HTTP ${res.status}`, res.status, error?.field);
}

/** Sends one request to an endpoint of the table (lib/contract/endpoints.ts). */
function request<E extends Endpoint>(endpoint: E, args: CallArgs<E>): Promise<Response> {
  const { params, query, body, signal } = args as {
    params?: Record<string, string>;
    query?: Record<string, unknown>;
    body?: unknown;
    signal?: AbortSignal;
  };
  return fetch(pathOf(endpoint, params, query), {
    method: endpoint.method,
    ...(body !== undefined ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {}),
    signal,
  });
}

/** Calls an endpoint and answers with its JSON, typed by the table; an error answer becomes an ApiError. */
export async function call<E extends Endpoint>(endpoint: E, args: CallArgs<E>): Promise<AnswerOf<E>> {
  const res = await request(endpoint, args);
  if (res.status === 204) return undefined as AnswerOf<E>;
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw failure(res, body);
  return body as AnswerOf<E>;
}

const e = endpoints;

export const api = {
  /** The health report comes with 502/503 too when the model server fails: those are answers, not errors. */
  health: async (): Promise<Health> => {
    const res = await fetch(pathOf(e.health), { cache: 'no-store' });
    const body = (await res.json().catch(() => null)) as Health | null;
    if (body && typeof body.model === 'object' && body.model !== null) return body;
    throw failure(res, body);
  },
  /** A page of the list; `view` narrows it to a folder ('none': in no folder) or gives the archive. */
  listThreads: (limit: number, cursor?: string | null, view: ThreadListView = { kind: 'all' }) =>
    call(e.listThreads, {
      query: {
        limit,
        cursor: cursor ?? undefined,
        folder: view.kind === 'folder' ? view.id : undefined,
        archived: view.kind === 'archive' ? 'true' : undefined,
      },
    }),
  listFolders: () => call(e.listFolders, {}),
  createFolder: (name: string) => call(e.createFolder, { body: { name } }),
  renameFolder: (id: string, name: string) => call(e.renameFolder, { params: { id }, body: { name } }),
  deleteFolder: (id: string) => call(e.deleteFolder, { params: { id } }),
  createThread: () => call(e.createThread, { body: {} }),
  getThread: (id: string) => call(e.getThread, { params: { id } }),
  patchThread: (id: string, patch: BodyOf<Endpoints['patchThread']>) => call(e.patchThread, { params: { id }, body: patch }),
  /** One action on many threads: delete, archive (or back), or move to a folder (null: none). */
  bulkThreads: (ids: string[], action: BulkThreadsBody['action']) => call(e.bulkThreads, { body: { ids, action } }),
  deleteThread: (id: string) => call(e.deleteThread, { params: { id } }),
  /** Deletes a message and what follows it; answers with the thread as now shown. */
  deleteMessage: (threadId: string, messageId: string) => call(e.deleteMessage, { params: { id: threadId, messageId } }),
  rateAnswer: (threadId: string, messageId: string, rating: Rating | null) =>
    call(e.rateAnswer, { params: { id: threadId, messageId }, body: { rating } }),
  cancel: (threadId: string, turnId: string) => call(e.cancelTurn, { params: { id: threadId, turnId } }),
  listPrompts: () => call(e.listPrompts, {}),
  addPrompt: (prompt: { name: string; text: string }) => call(e.addPrompt, { body: prompt }),
  editPrompt: (id: string, patch: { name?: string; text?: string }) => call(e.editPrompt, { params: { id }, body: patch }),
  removePrompt: (id: string) => call(e.removePrompt, { params: { id } }),
  listSessions: () => call(e.listSessions, {}),
  listPeople: () => call(e.listPeople, {}),
  createInvite: (role: Role) => call(e.createInvite, { body: { role } }),
  withdrawInvite: (id: string) => call(e.withdrawInvite, { params: { id } }),
  patchPerson: (id: string, patch: { role?: Role; disabled?: boolean; turnsPerDay?: number | null; fuelPerTurn?: number | null }) =>
    call(e.patchPerson, { params: { id }, body: patch }),
  /** What the person's own turns used, by day and model, and their limits. */
  usage: (days = 30) => call(e.getUsage, { query: { days } }),
  /** Everyone's usage (the owner's). */
  everyonesUsage: (days = 30) => call(e.everyonesUsage, { query: { days } }),
  removePerson: (id: string) => call(e.removePerson, { params: { id } }),
  acceptInvite: (token: string, body: { username: string; password: string }) => call(e.acceptInvite, { params: { token }, body }),
  endSession: (id: string) => call(e.endSession, { params: { id } }),
  listMemories: () => call(e.listMemories, {}),
  addMemory: (text: string) => call(e.addMemory, { body: { text } }),
  editMemory: (id: string, text: string) => call(e.editMemory, { params: { id }, body: { text } }),
  forgetMemory: (id: string) => call(e.forgetMemory, { params: { id } }),
  search: (q: string, filters: SearchFilters = {}, signal?: AbortSignal) => call(e.search, { query: { q, limit: 20, ...filters }, signal }),
  /** Every model the model servers offer, with its load state and what is known of it. */
  listModels: () => call(e.listModels, {}),
  getSettings: () => call(e.getSettings, {}),
  /** Whether a login is needed, and who is logged in. */
  session: () => call(e.session, {}),
  /** Changes settings; null puts one back to the environment's value. */
  patchSettings: (patch: Partial<{ [K in keyof Settings]: Settings[K] | null }>) =>
    call(e.patchSettings, { body: patch as BodyOf<Endpoints['patchSettings']> }),
  /** Applies or dismisses settings an imported file proposed (the owner's confirmation). */
  decideProposals: (action: ProposalsAction) => call(e.decideProposals, { body: action }),
  checkModel: (url: string, model: string) => call(e.checkModel, { body: model ? { url, model } : { url } }),
  checkSearch: (url: string) => call(e.checkSearch, { body: { url } }),
  checkEmbeddings: (url: string, model: string) => call(e.checkEmbeddings, { body: model ? { url, model } : { url } }),
  /** The answer to a tool call waiting in a thread: allow once, always allow its tool, or deny. */
  answerApproval: (threadId: string, callId: string, allow: boolean, always = false) =>
    call(e.answerApproval, { params: { id: threadId }, body: { callId, allow, ...(always ? { always } : {}) } }),
  /** The tools a thread's turns may be offered, each with whether the thread switched it off. */
  threadTools: (threadId: string) => call(e.threadTools, { params: { id: threadId } }),
  /** The user's MCP servers with their states and tools (secrets masked). */
  toolServers: () => call(e.toolServers, {}),
  /** Adds or dismisses tool servers an imported file proposed (the owner's confirmation). */
  decideToolServerProposals: (action: { apply?: string[]; dismiss?: string[] }) => call(e.decideToolServerProposals, { body: action }),
  /** Adds or changes a tool server (written back to mcp.json). */
  putToolServer: (name: string, server: Record<string, unknown>) => call(e.putToolServer, { params: { name }, body: { server } }),
  removeToolServer: (name: string) => call(e.removeToolServer, { params: { name } }),
  /** Knowledge collections, with their files' progress, and whether search is by meaning too. */
  listCollections: () => call(e.listCollections, {}),
  createCollection: (name: string) => call(e.createCollection, { body: { name } }),
  getCollection: (id: string) => call(e.getCollection, { params: { id } }),
  patchCollection: (id: string, patch: { name?: string; everyThread?: boolean; shared?: boolean }) =>
    call(e.patchCollection, { params: { id }, body: patch }),
  deleteCollection: (id: string) => call(e.deleteCollection, { params: { id } }),
  removeCollectionFile: (id: string, fileId: string) => call(e.removeCollectionFile, { params: { id, fileId } }),
  /** Adds a file already attached to a message. */
  addAttachmentToCollection: async (id: string, attachmentId: string) => {
    const res = await fetch(pathOf(e.addCollectionFiles, { id }), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ attachmentId } satisfies z.input<typeof addAttachmentToCollectionBody>),
    });
    return answerOf(e.addCollectionFiles, res);
  },
  searchCollection: (id: string, q: string) => call(e.searchCollection, { params: { id }, query: { q } }),
  /** Some words as audio from the text-to-speech server; 'no-server' when none is set (the browser's own voice then). */
  speech: async (text: string, signal?: AbortSignal): Promise<Blob | 'no-server'> => {
    const res = await request(e.speak, { body: { text }, signal });
    if (res.ok) return res.blob();
    const err = failure(res, await res.json().catch(() => null));
    if (err.code === 'no_speech_server') return 'no-server';
    throw err;
  },
  /** A file's lines around a passage, for the citation viewer. */
  passage: (id: string, fileId: string, from: number, to: number) => call(e.passage, { params: { id, fileId }, query: { from, to } }),
  /**
   * Sends a library file (or another app's export) as it is; `onProgress` hears the bytes sent so
   * far (fetch cannot tell an upload's progress: XMLHttpRequest can), then the server imports it.
   */
  importLibrary: (file: File, onProgress?: (sent: number, total: number) => void) =>
    new Promise<AnswerOf<Endpoints['importLibrary']>>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(e.importLibrary.method, pathOf(e.importLibrary));
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress = (ev) => onProgress?.(ev.loaded, ev.lengthComputable ? ev.total : file.size);
      xhr.onerror = () => reject(new ApiError('network', 'Hearth could not be reached; nothing was imported.', 0));
      xhr.onload = () => {
        const body = jsonOrNull(xhr.responseText);
        if (xhr.status >= 200 && xhr.status < 300) resolve(body as AnswerOf<Endpoints['importLibrary']>);
        else reject(failure(xhr, body));
      };
      xhr.send(file);
    }),
};

/** The JSON answer of a response to `endpoint`, or its error as an ApiError. */
async function answerOf<E extends Endpoint>(_endpoint: E, res: Response): Promise<AnswerOf<E>> {
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok || body === null) throw failure(res, body);
  return body as AnswerOf<E>;
}

/** Sends one file as the multipart field "file". */
function upload(path: string, file: File): Promise<Response> {
  const form = new FormData();
  form.set('file', file);
  return fetch(path, { method: 'POST', body: form });
}

/** Adds one file (or a zip of a folder) to a collection. */
export async function uploadToCollection(id: string, file: File) {
  return answerOf(e.addCollectionFiles, await upload(pathOf(e.addCollectionFiles, { id }), file));
}

/** The words in a recording, from the speech-to-text server (multipart, as OpenAI's API takes it). */
export async function transcribe(audio: Blob, { language, keep }: { language?: string; keep?: boolean } = {}) {
  const form = new FormData();
  form.set('file', audio, 'recording');
  if (language) form.set('language', language);
  // Kept (Settings → Voice → Keep recordings): the answer names the attachment for the message.
  if (keep) form.set('keep', 'true');
  return answerOf(e.transcribe, await fetch(pathOf(e.transcribe), { method: e.transcribe.method, body: form }));
}

/** Uploads one file; the answer's id goes with the next message. */
export async function uploadAttachment(file: File) {
  return answerOf(e.uploadAttachment, await upload(pathOf(e.uploadAttachment), file));
}

/** Reads a turn's event stream to its end (or until the signal aborts the reading). */
async function stream(res: Response, onEvent: (e: StreamedEvent) => void, signal?: AbortSignal) {
  if (!res.ok || !res.body) throw failure(res, await res.json().catch(() => null));
  for await (const frame of readSse(res.body, signal)) {
    try {
      onEvent(JSON.parse(frame.data) as StreamedEvent);
    } catch {
      // a malformed frame is skipped; the next replay fills any gap
    }
  }
}

/** Sends a message and streams the turn's events until it ends (or the signal aborts the reading). */
export async function sendMessage(
  threadId: string,
  content: string,
  attachmentIds: string[],
  onEvent: (e: StreamedEvent) => void,
  signal?: AbortSignal,
  editOf?: string,
) {
  const body = { content, ...(attachmentIds.length ? { attachmentIds } : {}), ...(editOf ? { editOf } : {}) };
  await stream(await request(e.sendMessage, { params: { id: threadId }, body, signal }), onEvent, signal);
}

/** Asks for a new answer beside this one (written by `model`, when given) and streams its turn. */
export async function regenerateAnswer(
  threadId: string,
  messageId: string,
  onEvent: (e: StreamedEvent) => void,
  signal?: AbortSignal,
  model?: string,
) {
  const res = model
    ? await request(e.regenerate, { params: { id: threadId, messageId }, body: { model }, signal })
    : await fetch(pathOf(e.regenerate, { id: threadId, messageId }), { method: e.regenerate.method, signal });
  await stream(res, onEvent, signal);
}

/** Re-attaches to a turn: replays its events after `after`, then follows it live. */
export async function followTurn(
  threadId: string,
  turnId: string,
  after: number,
  onEvent: (e: StreamedEvent) => void,
  signal?: AbortSignal,
) {
  await stream(await request(e.followTurn, { params: { id: threadId, turnId }, query: { after }, signal }), onEvent, signal);
}

/** Which threads the sidebar lists: all (not archived), one folder's, or the archive. */
export type ThreadListView = { kind: 'all' } | { kind: 'folder'; id: string } | { kind: 'archive' };
