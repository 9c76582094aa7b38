import { z } from 'zod';
import {
  approvalBody,
  bulkThreadsBody,
  checkEmbeddingsBody,
  checkModelBody,
  checkSearchBody,
  collectionSearchQuery,
  createCollectionBody,
  createThreadBody,
  eventsQuery,
  exportQuery,
  folderBody,
  idParam,
  listThreadsQuery,
  loginBody,
  memoryBody,
  passageQuery,
  patchCollectionBody,
  patchPromptBody,
  patchThreadBody,
  postMessageBody,
  promptBody,
  rateAnswerBody,
  regenerateBody,
  remoteImageQuery,
  searchQuery,
  serverNameParam,
  sessionIdParam,
  inviteBody,
  inviteIdParam,
  inviteTokenParam,
  personPatch,
  acceptInviteBody,
  speechBody,
  toolServerBody,
  toolServerProposalsAction,
  attachmentQuery,
  usageQuery,
  signOnQuery,
} from './requests';
import { proposalsAction, settingsPatch } from './settings';
import type {
  ApprovalAnswer,
  AttachmentInfo,
  CancelAnswer,
  CollectionDetail,
  CollectionFilesAdded,
  CollectionSearch,
  CollectionsList,
  CollectionView,
  Created,
  CreatedFolder,
  EmbeddingsCheck,
  FolderView,
  Health,
  ImportSummary,
  LoginAnswer,
  MemoryFact,
  ModelCheck,
  ModelsReport,
  PassageExcerpt,
  PromptView,
  SearchCheck,
  SearchResult,
  CreatedInvite,
  PeopleView,
  PersonInfo,
  SessionInfo,
  SessionState,
  SettingsView,
  StreamedEvent,
  ThreadPage,
  ThreadToolView,
  ThreadView,
  ToolServersView,
  UploadedAttachment,
  UsageView,
} from './responses';

/**
 * Hearth's HTTP API as one table: each endpoint's method, path, path parameters, query, body and
 * answer. The route handlers are declared through it (lib/http/serve.ts: a handler that answers
 * the wrong shape does not compile) and the browser's client calls over it (lib/client/api.ts),
 * so the two sides cannot drift apart. Only zod and the contract's own modules are imported here.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A path parameter: its schema, the thing it names (for "There is no … with that id"), and how a malformed one is answered. */
export type Param = {
  readonly schema: z.ZodType<string>;
  readonly names: string;
  /** An id that cannot name anything is unknown (404); a name in the wrong form is a bad request (400). */
  readonly malformed: 'not_found' | 'bad_request';
};

/** What a request carries: a JSON body checked by its schema, a multipart upload, an upload or JSON, raw bytes, or nothing. */
export type Body = z.ZodType | 'upload' | 'upload-or-json' | 'bytes' | undefined;

/**
 * What an endpoint answers: JSON of a type (`T` only exists for the compiler: the value is never
 * read), nothing (204), a turn's or the library's event stream, or a file.
 */
export type JsonAnswer<T> = { readonly kind: 'json'; readonly type: T };
export type EventsAnswer<T> = { readonly kind: 'events'; readonly type: T };
export type Answer = JsonAnswer<unknown> | EventsAnswer<unknown> | { readonly kind: 'none' } | { readonly kind: 'file' };

export const answers = {
  json: <T>() => ({ kind: 'json' }) as JsonAnswer<T>,
  none: { kind: 'none' } as const,
  events: <T>() => ({ kind: 'events' }) as EventsAnswer<T>,
  file: { kind: 'file' } as const,
};

export type Endpoint = {
  readonly method: Method;
  /** Express-style: `/api/threads/:id`. */
  readonly path: string;
  readonly params?: Readonly<Record<string, Param>>;
  readonly query?: z.ZodType;
  readonly body?: Body;
  readonly answer: Answer;
  /**
   * Who may ask, when not every person: an admin or the owner (what everyone shares: the
   * servers, the settings), or the owner alone (what runs programs on the host: tool servers).
   * lib/http/serve.ts refuses anyone else with 403 before the handler runs.
   */
  readonly who?: 'admin' | 'owner';
};

/** The parameter names a path template holds: `/api/threads/:id/turns/:turnId` → 'id' | 'turnId'. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** Checks that an endpoint's `params` name exactly its path's parameters. */
function endpoint<const P extends string, const E extends Omit<Endpoint, 'path' | 'params'>>(
  spec: E & { path: P } & ([PathParams<P>] extends [never] ? { params?: undefined } : { params: Record<PathParams<P>, Param> }),
) {
  return spec;
}

const id = (names: string): Param => ({ schema: idParam, names, malformed: 'not_found' });
const thread = id('thread');
const { json, none, events, file } = answers;

export const endpoints = {
  health: endpoint({ method: 'GET', path: '/api/health', answer: json<Health & { toolServers?: unknown[] }>() }),
  login: endpoint({ method: 'POST', path: '/api/auth/login', body: loginBody, answer: json<LoginAnswer>() }),
  logout: endpoint({ method: 'POST', path: '/api/auth/logout', answer: json<{ ok: true }>() }),
  session: endpoint({ method: 'GET', path: '/api/auth/session', answer: json<SessionState>() }),
  /** Single sign-on begins: a redirect to the provider (?next=/path, ?invite=token to join with an invitation). */
  signOn: endpoint({ method: 'GET', path: '/api/auth/oidc/login', query: signOnQuery, answer: file }),
  /** The provider sends the browser back here: logged in and sent on, or back to the login page with the reason. */
  signOnCallback: endpoint({ method: 'GET', path: '/api/auth/oidc/callback', answer: file }),
  /** Who may use this Hearth, and the invitations still open (the admin page). */
  listPeople: endpoint({ method: 'GET', who: 'admin', path: '/api/people', answer: json<PeopleView>() }),
  createInvite: endpoint({ method: 'POST', who: 'admin', path: '/api/people/invites', body: inviteBody, answer: json<CreatedInvite>() }),
  withdrawInvite: endpoint({
    method: 'DELETE',
    who: 'admin',
    path: '/api/people/invites/:id',
    params: { id: { schema: inviteIdParam, names: 'invitation', malformed: 'not_found' } },
    answer: none,
  }),
  patchPerson: endpoint({
    method: 'PATCH',
    who: 'admin',
    path: '/api/people/:id',
    params: { id: id('person') },
    body: personPatch,
    answer: json<PersonInfo>(),
  }),
  removePerson: endpoint({ method: 'DELETE', who: 'admin', path: '/api/people/:id', params: { id: id('person') }, answer: none }),
  /** A person's whole library as its file (the owner's copy of everyone's: a person leaving, a move, a backup of one). */
  /** Everyone's usage, by person, day and model: the owner's to see. */
  everyonesUsage: endpoint({ method: 'GET', who: 'owner', path: '/api/people/usage', query: usageQuery, answer: json<UsageView>() }),
  everyonesUsageCsv: endpoint({ method: 'GET', who: 'owner', path: '/api/people/usage/csv', query: usageQuery, answer: file }),
  /** The person's own usage, by day and model, and their limits. */
  getUsage: endpoint({ method: 'GET', path: '/api/usage', query: usageQuery, answer: json<UsageView>() }),
  usageCsv: endpoint({ method: 'GET', path: '/api/usage/csv', query: usageQuery, answer: file }),
  exportPersonLibrary: endpoint({
    method: 'GET',
    who: 'owner',
    path: '/api/people/:id/export',
    params: { id: id('person') },
    answer: file,
  }),
  /** Joining with an invitation: the account made, and logged in (no session needed to ask). */
  acceptInvite: endpoint({
    method: 'POST',
    path: '/api/invites/:token',
    params: { token: { schema: inviteTokenParam, names: 'invitation', malformed: 'not_found' } },
    body: acceptInviteBody,
    answer: json<LoginAnswer>(),
  }),
  /** The asking person's sessions, newest first; one of them ended (their own only). */
  listSessions: endpoint({ method: 'GET', path: '/api/auth/sessions', answer: json<{ sessions: SessionInfo[] }>() }),
  endSession: endpoint({
    method: 'DELETE',
    path: '/api/auth/sessions/:id',
    params: { id: { schema: sessionIdParam, names: 'session', malformed: 'not_found' } },
    answer: none,
  }),
  libraryEvents: endpoint({ method: 'GET', path: '/api/events', answer: events<{ type: string }>() }),

  listThreads: endpoint({ method: 'GET', path: '/api/threads', query: listThreadsQuery, answer: json<ThreadPage>() }),
  createThread: endpoint({ method: 'POST', path: '/api/threads', body: createThreadBody, answer: json<Created>() }),
  bulkThreads: endpoint({ method: 'POST', path: '/api/threads/bulk', body: bulkThreadsBody, answer: json<{ count: number }>() }),
  getThread: endpoint({ method: 'GET', path: '/api/threads/:id', params: { id: thread }, answer: json<ThreadView>() }),
  patchThread: endpoint({
    method: 'PATCH',
    path: '/api/threads/:id',
    params: { id: thread },
    body: patchThreadBody,
    answer: json<ThreadView>(),
  }),
  deleteThread: endpoint({ method: 'DELETE', path: '/api/threads/:id', params: { id: thread }, answer: none }),
  exportThread: endpoint({ method: 'GET', path: '/api/threads/:id/export', params: { id: thread }, query: exportQuery, answer: file }),
  threadTools: endpoint({
    method: 'GET',
    path: '/api/threads/:id/tools',
    params: { id: thread },
    answer: json<{ tools: ThreadToolView[] }>(),
  }),
  answerApproval: endpoint({
    method: 'POST',
    path: '/api/threads/:id/approvals',
    params: { id: thread },
    body: approvalBody,
    answer: json<ApprovalAnswer>(),
  }),
  sendMessage: endpoint({
    method: 'POST',
    path: '/api/threads/:id/messages',
    params: { id: thread },
    body: postMessageBody,
    answer: events<StreamedEvent>(),
  }),
  deleteMessage: endpoint({
    method: 'DELETE',
    path: '/api/threads/:id/messages/:messageId',
    params: { id: thread, messageId: id('message') },
    answer: json<ThreadView>(),
  }),
  rateAnswer: endpoint({
    method: 'PUT',
    path: '/api/threads/:id/messages/:messageId/rating',
    params: { id: thread, messageId: id('message') },
    body: rateAnswerBody,
    answer: json<ThreadView>(),
  }),
  regenerate: endpoint({
    method: 'POST',
    path: '/api/threads/:id/messages/:messageId/regenerate',
    params: { id: thread, messageId: id('message') },
    body: regenerateBody,
    answer: events<StreamedEvent>(),
  }),
  cancelTurn: endpoint({
    method: 'POST',
    path: '/api/threads/:id/turns/:turnId/cancel',
    params: { id: thread, turnId: id('turn') },
    answer: json<CancelAnswer>(),
  }),
  followTurn: endpoint({
    method: 'GET',
    path: '/api/threads/:id/turns/:turnId/events',
    params: { id: thread, turnId: id('turn') },
    query: eventsQuery,
    answer: events<StreamedEvent>(),
  }),

  listFolders: endpoint({ method: 'GET', path: '/api/folders', answer: json<{ folders: FolderView[] }>() }),
  createFolder: endpoint({ method: 'POST', path: '/api/folders', body: folderBody, answer: json<CreatedFolder>() }),
  renameFolder: endpoint({
    method: 'PATCH',
    path: '/api/folders/:id',
    params: { id: id('folder') },
    body: folderBody,
    answer: json<CreatedFolder>(),
  }),
  deleteFolder: endpoint({ method: 'DELETE', path: '/api/folders/:id', params: { id: id('folder') }, answer: none }),

  listPrompts: endpoint({ method: 'GET', path: '/api/prompts', answer: json<{ prompts: PromptView[] }>() }),
  addPrompt: endpoint({ method: 'POST', path: '/api/prompts', body: promptBody, answer: json<PromptView>() }),
  editPrompt: endpoint({
    method: 'PATCH',
    path: '/api/prompts/:id',
    params: { id: id('prompt') },
    body: patchPromptBody,
    answer: json<PromptView>(),
  }),
  removePrompt: endpoint({ method: 'DELETE', path: '/api/prompts/:id', params: { id: id('prompt') }, answer: none }),

  listMemories: endpoint({ method: 'GET', path: '/api/memories', answer: json<{ memories: MemoryFact[] }>() }),
  addMemory: endpoint({ method: 'POST', path: '/api/memories', body: memoryBody, answer: json<MemoryFact>() }),
  editMemory: endpoint({
    method: 'PATCH',
    path: '/api/memories/:id',
    params: { id: id('memory') },
    body: memoryBody,
    answer: json<MemoryFact>(),
  }),
  forgetMemory: endpoint({ method: 'DELETE', path: '/api/memories/:id', params: { id: id('memory') }, answer: none }),

  search: endpoint({ method: 'GET', path: '/api/search', query: searchQuery, answer: json<{ results: SearchResult[] }>() }),
  listModels: endpoint({ method: 'GET', path: '/api/models', answer: json<ModelsReport>() }),

  getSettings: endpoint({ method: 'GET', path: '/api/settings', answer: json<SettingsView>() }),
  /** Anyone changes their own settings (PERSONAL_SETTINGS); the household's are the owner's and admins' (403 for a member). */
  patchSettings: endpoint({ method: 'PATCH', path: '/api/settings', body: settingsPatch, answer: json<SettingsView>() }),
  /** The household's proposals are the owner's and admins' to decide (403 for a member); each person decides their own settings'. */
  decideProposals: endpoint({
    method: 'POST',
    path: '/api/settings/proposals',
    body: proposalsAction,
    answer: json<SettingsView>(),
  }),
  checkModel: endpoint({
    method: 'POST',
    who: 'admin',
    path: '/api/settings/check-model',
    body: checkModelBody,
    answer: json<ModelCheck>(),
  }),
  checkSearch: endpoint({
    method: 'POST',
    who: 'admin',
    path: '/api/settings/check-search',
    body: checkSearchBody,
    answer: json<SearchCheck>(),
  }),
  checkEmbeddings: endpoint({
    method: 'POST',
    who: 'admin',
    path: '/api/settings/check-embeddings',
    body: checkEmbeddingsBody,
    answer: json<EmbeddingsCheck>(),
  }),

  toolServers: endpoint({ method: 'GET', who: 'admin', path: '/api/tool-servers', answer: json<ToolServersView>() }),
  decideToolServerProposals: endpoint({
    method: 'POST',
    who: 'owner',
    path: '/api/tool-servers/proposals',
    body: toolServerProposalsAction,
    answer: json<ToolServersView>(),
  }),
  putToolServer: endpoint({
    method: 'PUT',
    who: 'owner',
    path: '/api/tool-servers/:name',
    params: { name: { schema: serverNameParam, names: 'tool server', malformed: 'bad_request' } },
    body: toolServerBody,
    answer: json<ToolServersView>(),
  }),
  removeToolServer: endpoint({
    method: 'DELETE',
    who: 'owner',
    path: '/api/tool-servers/:name',
    params: { name: { schema: serverNameParam, names: 'tool server', malformed: 'bad_request' } },
    answer: none,
  }),

  listCollections: endpoint({ method: 'GET', path: '/api/collections', answer: json<CollectionsList>() }),
  createCollection: endpoint({ method: 'POST', path: '/api/collections', body: createCollectionBody, answer: json<CollectionView>() }),
  getCollection: endpoint({
    method: 'GET',
    path: '/api/collections/:id',
    params: { id: id('collection') },
    answer: json<CollectionDetail>(),
  }),
  patchCollection: endpoint({
    method: 'PATCH',
    path: '/api/collections/:id',
    params: { id: id('collection') },
    body: patchCollectionBody,
    answer: json<CollectionView>(),
  }),
  deleteCollection: endpoint({ method: 'DELETE', path: '/api/collections/:id', params: { id: id('collection') }, answer: none }),
  searchCollection: endpoint({
    method: 'GET',
    path: '/api/collections/:id/search',
    params: { id: id('collection') },
    query: collectionSearchQuery,
    answer: json<CollectionSearch>(),
  }),
  /** A file (multipart field "file"; a zip adds each file in it), or JSON {attachmentId}: a file already attached. */
  addCollectionFiles: endpoint({
    method: 'POST',
    path: '/api/collections/:id/files',
    params: { id: id('collection') },
    body: 'upload-or-json',
    answer: json<CollectionFilesAdded>(),
  }),
  passage: endpoint({
    method: 'GET',
    path: '/api/collections/:id/files/:fileId',
    params: { id: id('collection'), fileId: id('file') },
    query: passageQuery,
    answer: json<PassageExcerpt>(),
  }),
  removeCollectionFile: endpoint({
    method: 'DELETE',
    path: '/api/collections/:id/files/:fileId',
    params: { id: id('collection'), fileId: id('file') },
    answer: none,
  }),

  uploadAttachment: endpoint({ method: 'POST', path: '/api/attachments', body: 'upload', answer: json<UploadedAttachment>() }),
  attachment: endpoint({
    method: 'GET',
    path: '/api/attachments/:id',
    params: { id: id('attachment') },
    query: attachmentQuery,
    answer: file,
  }),
  /** A recording (multipart field "file", optional field "language") → its words. */
  /** A recording → its words; kept as an attachment for the next message when asked and Keep recordings is on. */
  transcribe: endpoint({
    method: 'POST',
    path: '/api/audio/transcriptions',
    body: 'upload',
    answer: json<{ text: string; attachment?: AttachmentInfo }>(),
  }),
  /** An answer's text → its audio, streamed from the text-to-speech server. */
  speak: endpoint({ method: 'POST', path: '/api/audio/speech', body: speechBody, answer: file }),
  remoteImage: endpoint({ method: 'GET', path: '/api/remote-image', query: remoteImageQuery, answer: file }),
  exportLibrary: endpoint({ method: 'GET', path: '/api/export', answer: file }),
  importLibrary: endpoint({ method: 'POST', path: '/api/import', body: 'bytes', answer: json<ImportSummary & { theme?: string }>() }),
};

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

/** The JSON an endpoint answers with (void for none, the event's type for a stream). */
export type AnswerOf<E extends Endpoint> = E['answer'] extends { kind: 'json' | 'events'; type: infer T } ? T : void;

/** The values a caller gives: path parameters, query and JSON body, as their schemas take them in. */
export type ParamsOf<E extends Endpoint> = E['params'] extends Readonly<Record<infer K extends string, Param>> ? Record<K, string> : never;
export type QueryOf<E extends Endpoint> = E['query'] extends z.ZodType ? z.input<E['query']> : never;
export type BodyOf<E extends Endpoint> = E['body'] extends z.ZodType ? z.input<E['body']> : never;

/** The address of an endpoint with its parameters filled in (each encoded) and its query, if any. */
export function pathOf(endpoint: Endpoint, params: Record<string, string> = {}, query?: Record<string, unknown>): string {
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
