import type { ProposalsAction, Settings } from '@/lib/contract/settings';
import type { Sampling } from '@/lib/contract/sampling';
import type { BulkThreadsBody } from '@/lib/contract/requests';
import type {
  AttachmentInfo,
  CollectionDetail,
  CollectionFileView,
  CollectionView,
  PassageView,
  Health,
  ImportSummary,
  FolderView,
  MemoryFact,
  ModelCheck,
  ModelsReport,
  PromptView,
  Rating,
  SearchFilters,
  SearchResult,
  SettingsView,
  StreamedEvent,
  ThreadSummary,
  ThreadView,
  ToolServersView,
} from '@/lib/contract/responses';
import { readSse } from '@/lib/contract/sse';

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

async function call<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(path, { ...init, headers: { 'Content-Type': 'application/json', ...init?.headers } });
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string; field?: string } } | null;
  if (!res.ok)
    throw new ApiError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${res.status}`, res.status, body?.error?.field);
  return body as T;
}

export const api = {
  /** The health report comes with 502/503 too when the model server fails: those are answers, not errors. */
  health: async (): Promise<Health> => {
    const res = await fetch('/api/health', { cache: 'no-store' });
    const body = (await res.json().catch(() => null)) as (Health & { error?: { code: string; message: string } }) | null;
    if (body && typeof body.model === 'object' && body.model !== null) return body;
    throw new ApiError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${res.status}`, res.status);
  },
  /** A page of the list; `view` narrows it to a folder ('none': in no folder) or gives the archive. */
  listThreads: (limit: number, cursor?: string | null, view: ThreadListView = { kind: 'all' }) =>
    call<{ threads: ThreadSummary[]; nextCursor: string | null }>(
      `/api/threads?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}${
        view.kind === 'folder' ? `&folder=${encodeURIComponent(view.id)}` : view.kind === 'archive' ? '&archived=true' : ''
      }`,
    ),
  listFolders: () => call<{ folders: FolderView[] }>('/api/folders'),
  createFolder: (name: string) => call<{ id: string; name: string }>('/api/folders', { method: 'POST', body: JSON.stringify({ name }) }),
  renameFolder: (id: string, name: string) =>
    call<FolderView>(`/api/folders/${encodeURIComponent(id)}`, { method: 'PATCH', body: JSON.stringify({ name }) }),
  deleteFolder: (id: string) => call<void>(`/api/folders/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  createThread: () => call<{ id: string; title: string; createdAt: number }>('/api/threads', { method: 'POST', body: '{}' }),
  getThread: (id: string) => call<ThreadView>(`/api/threads/${encodeURIComponent(id)}`),
  patchThread: (
    id: string,
    patch: {
      title?: string;
      pinned?: boolean;
      systemPrompt?: string;
      branch?: string;
      thinking?: 'default' | 'on' | 'off' | null;
      disabledTools?: string[];
      folderId?: string | null;
      archived?: boolean;
      /** The model its turns ask for; null: the default. */
      model?: string | null;
      /** The knowledge collections its turns search. */
      collectionIds?: string[];
      /** Sampling for its replies; null: each server's defaults. */
      sampling?: Sampling | null;
    },
  ) => call<ThreadView>(`/api/threads/${encodeURIComponent(id)}`, { method: 'PATCH', body: JSON.stringify(patch) }),
  /** One action on many threads: delete, archive (or back), or move to a folder (null: none). */
  bulkThreads: (ids: string[], action: BulkThreadsBody['action']) =>
    call<{ count: number }>('/api/threads/bulk', { method: 'POST', body: JSON.stringify({ ids, action }) }),
  deleteThread: (id: string) => call<void>(`/api/threads/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  /** Deletes a message and what follows it; answers with the thread as now shown. */
  deleteMessage: (threadId: string, messageId: string) =>
    call<ThreadView>(`/api/threads/${encodeURIComponent(threadId)}/messages/${encodeURIComponent(messageId)}`, { method: 'DELETE' }),
  rateAnswer: (threadId: string, messageId: string, rating: Rating | null) =>
    call<ThreadView>(`/api/threads/${encodeURIComponent(threadId)}/messages/${encodeURIComponent(messageId)}/rating`, {
      method: 'PUT',
      body: JSON.stringify({ rating }),
    }),
  cancel: (threadId: string, turnId: string) =>
    call<unknown>(`/api/threads/${encodeURIComponent(threadId)}/turns/${encodeURIComponent(turnId)}/cancel`, { method: 'POST' }),
  listPrompts: () => call<{ prompts: PromptView[] }>('/api/prompts'),
  addPrompt: (prompt: { name: string; text: string }) => call<PromptView>('/api/prompts', { method: 'POST', body: JSON.stringify(prompt) }),
  editPrompt: (id: string, patch: { name?: string; text?: string }) =>
    call<PromptView>(`/api/prompts/${encodeURIComponent(id)}`, { method: 'PATCH', body: JSON.stringify(patch) }),
  removePrompt: (id: string) => call<void>(`/api/prompts/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  listMemories: () => call<{ memories: MemoryFact[] }>('/api/memories'),
  addMemory: (text: string) => call<MemoryFact>('/api/memories', { method: 'POST', body: JSON.stringify({ text }) }),
  editMemory: (id: string, text: string) =>
    call<MemoryFact>(`/api/memories/${encodeURIComponent(id)}`, { method: 'PATCH', body: JSON.stringify({ text }) }),
  forgetMemory: (id: string) => call<void>(`/api/memories/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  search: (q: string, filters: SearchFilters = {}, signal?: AbortSignal) => {
    const params = new URLSearchParams({ q, limit: '20' });
    for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
    return call<{ results: SearchResult[] }>(`/api/search?${params}`, { signal });
  },
  /** Every model the model servers offer, with its load state and what is known of it. */
  listModels: () => call<ModelsReport>('/api/models'),
  getSettings: () => call<SettingsView>('/api/settings'),
  /** Changes settings; null puts one back to the environment's value. */
  patchSettings: (patch: Partial<{ [K in keyof Settings]: Settings[K] | null }>) =>
    call<SettingsView>('/api/settings', { method: 'PATCH', body: JSON.stringify(patch) }),
  /** Applies or dismisses settings an imported file proposed (the owner's confirmation). */
  decideProposals: (action: ProposalsAction) =>
    call<SettingsView>('/api/settings/proposals', { method: 'POST', body: JSON.stringify(action) }),
  checkModel: (url: string, model: string) =>
    call<ModelCheck>('/api/settings/check-model', { method: 'POST', body: JSON.stringify(model ? { url, model } : { url }) }),
  checkSearch: (url: string) =>
    call<{ ok: boolean; results?: number; error?: string }>('/api/settings/check-search', {
      method: 'POST',
      body: JSON.stringify({ url }),
    }),
  checkEmbeddings: (url: string, model: string) =>
    call<{ ok: true; dims: number; ms: number } | { ok: false; error: string }>('/api/settings/check-embeddings', {
      method: 'POST',
      body: JSON.stringify(model ? { url, model } : { url }),
    }),
  /** The answer to a tool call waiting in a thread: allow once, always allow its tool, or deny. */
  answerApproval: (threadId: string, callId: string, allow: boolean, always = false) =>
    call<{ callId: string; answer: string }>(`/api/threads/${encodeURIComponent(threadId)}/approvals`, {
      method: 'POST',
      body: JSON.stringify({ callId, allow, ...(always ? { always } : {}) }),
    }),
  /** The tools a thread's turns may be offered, each with whether the thread switched it off. */
  threadTools: (threadId: string) =>
    call<{ tools: { name: string; source: string; description: string; enabled: boolean }[] }>(
      `/api/threads/${encodeURIComponent(threadId)}/tools`,
    ),
  /** The user's MCP servers with their states and tools (secrets masked). */
  toolServers: () => call<ToolServersView>('/api/tool-servers'),
  /** Adds or dismisses tool servers an imported file proposed (the owner's confirmation). */
  decideToolServerProposals: (action: { apply?: string[]; dismiss?: string[] }) =>
    call<ToolServersView>('/api/tool-servers/proposals', { method: 'POST', body: JSON.stringify(action) }),
  /** Adds or changes a tool server (written back to mcp.json). */
  putToolServer: (name: string, server: Record<string, unknown>) =>
    call<ToolServersView>(`/api/tool-servers/${encodeURIComponent(name)}`, { method: 'PUT', body: JSON.stringify({ server }) }),
  removeToolServer: (name: string) => call<void>(`/api/tool-servers/${encodeURIComponent(name)}`, { method: 'DELETE' }),
  /** Knowledge collections, with their files' progress, and whether search is by meaning too. */
  listCollections: () =>
    call<{ collections: CollectionView[]; search: { byMeaning: boolean; embeddingsError: string | null } }>('/api/collections'),
  createCollection: (name: string) => call<CollectionView>('/api/collections', { method: 'POST', body: JSON.stringify({ name }) }),
  getCollection: (id: string) => call<CollectionDetail>(`/api/collections/${encodeURIComponent(id)}`),
  patchCollection: (id: string, patch: { name?: string; everyThread?: boolean }) =>
    call<CollectionView>(`/api/collections/${encodeURIComponent(id)}`, { method: 'PATCH', body: JSON.stringify(patch) }),
  deleteCollection: (id: string) => call<void>(`/api/collections/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  removeCollectionFile: (id: string, fileId: string) =>
    call<void>(`/api/collections/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}`, { method: 'DELETE' }),
  /** Adds a file already attached to a message. */
  addAttachmentToCollection: (id: string, attachmentId: string) =>
    call<{ files: CollectionFileView[] }>(`/api/collections/${encodeURIComponent(id)}/files`, {
      method: 'POST',
      body: JSON.stringify({ attachmentId }),
    }),
  searchCollection: (id: string, q: string) =>
    call<{ passages: PassageView[]; byMeaning: boolean; note?: string }>(
      `/api/collections/${encodeURIComponent(id)}/search?q=${encodeURIComponent(q)}`,
    ),
  /** A file's lines around a passage, for the citation viewer. */
  passage: (id: string, fileId: string, from: number, to: number) =>
    call<{ file: CollectionFileView; firstLine: number; lines: string[]; highlight: { from: number; to: number }; totalLines: number }>(
      `/api/collections/${encodeURIComponent(id)}/files/${encodeURIComponent(fileId)}?from=${from}&to=${to}`,
    ),
  /** Imports a library file (or one thread's JSON export), sent as it is. */
  /**
   * Sends a library file (or another app's export) as it is; `onProgress` hears the bytes sent so
   * far (fetch cannot tell an upload's progress: XMLHttpRequest can), then the server imports it.
   */
  importLibrary: (file: File, onProgress?: (sent: number, total: number) => void) =>
    new Promise<ImportSummary>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/api/import');
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
      xhr.onerror = () => reject(new ApiError('network', 'Hearth could not be reached; nothing was imported.', 0));
      xhr.onload = () => {
        const body = jsonOrNull(xhr.responseText) as { error?: { code: string; message: string } } | null;
        if (xhr.status >= 200 && xhr.status < 300) resolve(body as unknown as ImportSummary);
        else reject(new ApiError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${xhr.status}`, xhr.status));
      };
      xhr.send(file);
    }),
};

/** Adds one file (or a zip of a folder) to a collection. */
export async function uploadToCollection(
  id: string,
  file: File,
): Promise<{ files: CollectionFileView[]; skipped: { name: string; reason: string }[] }> {
  const form = new FormData();
  form.set('file', file);
  const res = await fetch(`/api/collections/${encodeURIComponent(id)}/files`, { method: 'POST', body: form });
  const body = (await res.json().catch(() => null)) as {
    files: CollectionFileView[];
    skipped: { name: string; reason: string }[];
    error?: { code: string; message: string };
  } | null;
  if (!res.ok || !body) throw new ApiError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${res.status}`, res.status);
  return body;
}

/** Uploads one file; the answer's id goes with the next message. */
export async function uploadAttachment(file: File): Promise<AttachmentInfo & { chars: number }> {
  const form = new FormData();
  form.set('file', file);
  const res = await fetch('/api/attachments', { method: 'POST', body: form });
  const body = (await res.json().catch(() => null)) as (AttachmentInfo & { chars: number }) & { error?: { code: string; message: string } };
  if (!res.ok) throw new ApiError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${res.status}`, res.status);
  return body;
}

async function stream(res: Response, onEvent: (e: StreamedEvent) => void, signal?: AbortSignal) {
  if (!res.ok || !res.body) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${res.status}`, res.status);
  }
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
  const res = await fetch(`/api/threads/${encodeURIComponent(threadId)}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ content, ...(attachmentIds.length ? { attachmentIds } : {}), ...(editOf ? { editOf } : {}) }),
    signal,
  });
  await stream(res, onEvent, signal);
}

/** Asks for a new answer beside this one (written by `model`, when given) and streams its turn. */
export async function regenerateAnswer(
  threadId: string,
  messageId: string,
  onEvent: (e: StreamedEvent) => void,
  signal?: AbortSignal,
  model?: string,
) {
  const res = await fetch(`/api/threads/${encodeURIComponent(threadId)}/messages/${encodeURIComponent(messageId)}/regenerate`, {
    method: 'POST',
    ...(model ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ model }) } : {}),
    signal,
  });
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
  const res = await fetch(`/api/threads/${encodeURIComponent(threadId)}/turns/${encodeURIComponent(turnId)}/events?after=${after}`, {
    signal,
  });
  await stream(res, onEvent, signal);
}

/** Which threads the sidebar lists: all (not archived), one folder's, or the archive. */
export type ThreadListView = { kind: 'all' } | { kind: 'folder'; id: string } | { kind: 'archive' };
