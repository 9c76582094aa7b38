import type { Sampling } from './sampling';
import type { DecisionRecord } from './decisions';
import type { TurnEvent, TurnStats } from './events';
import type { SetAsideDraft, ThinkingBlock } from './turn-state';
import type { ConfirmedSetting, Settings } from './settings';
import type { MessageStatus, Role } from './statuses';

/** What the HTTP API answers with: the shapes the server builds and the browser reads. */

export type ThreadSummary = {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  pinned: boolean;
  /** Its folder (null: none), and whether it is in the archive. */
  folderId: string | null;
  archived: boolean;
};
/** GET /api/folders: each folder, with how many threads are in it. */
/** GET /api/models: one model, offered by one or more model servers (lib/models/models.ts). Null: not known. */
export type ModelView = {
  id: string;
  /** The servers (as LLAMA_URL names them) that offer it. */
  servers: string[];
  /** Router mode's load state; null where a server runs this one model (it is loaded). */
  state: 'loaded' | 'loading' | 'unloaded' | 'failed' | null;
  contextSize: number | null;
  vision: boolean | null;
  /** The chat template takes tools (llama-server's chat_template_caps). */
  toolCalls: boolean | null;
  /** A thinking model's template (it reads enable_thinking or opens a think block). */
  thinking: boolean | null;
  /** Its headline in the newest eval report that names it (`npm run eval`), when one is kept (lib/services/scorecards.ts). */
  scorecard?: ModelScorecard;
  /** Its gate judges as last measured (`npm run eval -- --gate`), when a report is kept. */
  gate?: GateScorecard;
  /** The thumbs its answers got here (absent when none were rated). */
  ratings?: { up: number; down: number };
};
/** How well a model judges drafts as the gate's verdict (lib/dev/eval/gate-eval.ts), over every language measured. */
export type GateScorecard = {
  /** Deferrals it sent to research, of all deferrals; null when the set had none. */
  recall: number | null;
  /** Its "research" verdicts that were deferrals; null when it said none. */
  precision: number | null;
  /** Median ms per verdict. */
  msPerJudgement: number;
  drafts: number;
  languages: number;
  at: string;
};
export type ModelScorecard = {
  /** Runs that ended with an answer, of all runs (scenarios × repeats). */
  completed: number;
  runs: number;
  /** Expectations met, of all. */
  met: number;
  total: number;
  /** Answers that still deferred ("I can search for that…"). */
  deferralsLeft: number;
  tokensPerSecond: number | null;
  /** When the eval finished (ISO). */
  at: string;
};
export type ModelsReport = { models: ModelView[]; unreachable: { url: string; error: string }[] };
export type FolderView = { id: string; name: string; createdAt: number; threads: number };
export type ToolCallView = {
  id: string;
  name: string;
  arguments: string;
  ok: boolean;
  result: unknown;
  error?: string;
  repeat: boolean;
  ms: number;
};
export type MessageView = {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
  errorCode: string | null;
  turnId: string | null;
  /** The message this one follows (null for a first message). */
  parentId?: string | null;
  /** Its versions (it and its siblings, oldest first) when there are several: "index+1 / ids.length". */
  branch?: { index: number; ids: string[]; /** An answer's: the model that wrote each version. */ models?: (string | null)[] } | null;
  createdAt: number;
  toolCalls: ToolCallView[];
  attachments: AttachmentInfo[];
  decisions: DecisionRecord[];
  setAside: SetAsideDraft[];
  calculation: { expression: string; result: string; exact: boolean; fraction?: string } | null;
  /** The memory facts the answer drew on (absent when none). */
  remembered?: string[];
  /** The model's thinking, each call's in order: never the answer (not in content, not copied). */
  thinking: ThinkingView[];
  /** The turn's figures (time to first word, speed, calls, fuel), once it has finished. */
  stats?: TurnStats | null;
  /** For an answer: the model that wrote it (null: not known). */
  model?: string | null;
  /** For an answer: the user's thumbs (null: not rated). */
  rating?: Rating | null;
};
/** Thumbs on an answer, as the page and PUT …/messages/:id/rating say them. */
export type Rating = 'up' | 'down';
/** A call's thinking as a stored thread shows it (lib/contract/turn-state.ts ThinkingBlock, finished). */
export type ThinkingView = Omit<ThinkingBlock, 'done'>;
export type ThreadView = ThreadSummary & {
  systemPrompt: string;
  /** Thinking for this thread; null follows the Settings page. */
  thinking?: 'default' | 'on' | 'off' | null;
  /** The model its turns ask for; null: the default (Settings). */
  model?: string | null;
  /** Sampling for its replies; null: each server's defaults. */
  sampling?: Sampling | null;
  /** The knowledge collections it chose (those for every thread are searched besides). */
  collectionIds?: string[];
  /** The last message of the branch shown. */
  currentLeafId?: string | null;
  messages: MessageView[];
  decisions: DecisionRecord[];
  activeTurn: { id: string; lastEventSeq: number; live: boolean } | null;
};
/** A thread as its JSON export keeps it: the branch shown, and with `allBranches` every other one. */
export type ThreadExport = ThreadView & { otherMessages?: MessageView[] };
export type AttachmentInfo = {
  id: string;
  name: string;
  mime: string;
  size: number;
  kind?: string;
  width?: number | null;
  height?: number | null;
};
/** GET /api/tool-servers: the user's MCP servers (lib/services/tool-servers.ts), secrets masked. */
export type ToolServersView = {
  file: string;
  /** Servers an imported library file proposed (secrets masked); none runs until the owner adds it. */
  proposals: { name: string; config: Record<string, unknown> & { command?: string; args?: string[]; url?: string } }[];
  problems: { name: string; error: string }[];
  servers: {
    name: string;
    config: Record<string, unknown> & {
      command?: string;
      args?: string[];
      url?: string;
      hearth?: { disabled?: boolean; source?: boolean; disabledTools?: string[]; approval?: Record<string, string> };
    };
    status: {
      state: 'off' | 'connecting' | 'ready' | 'failed';
      transport: 'stdio' | 'http' | 'sse';
      error?: string;
      log: string[];
      tools: {
        name: string;
        modelName: string;
        description: string;
        readOnly: boolean;
        approval: string;
        enabled: boolean;
        problem?: string;
      }[];
    };
  }[];
};
export type MemoryFact = { id: string; text: string; createdAt: number; updatedAt: number };
export type ModelServerHealth = {
  url: string;
  reachable: boolean;
  up: boolean;
  id?: string;
  error?: string;
  running: number;
  conversationSlots: number;
};
export type Health = {
  ok: boolean;
  db: boolean;
  /** The engine the libraries are kept on: SQLite files in DATA_DIR, or PostgreSQL (DATABASE_URL). */
  engine?: 'sqlite' | 'postgres';
  /**
   * How passages are ranked by meaning: 'sqlite-vec' (SQLite's scan of quantised vectors),
   * 'pgvector <version>' (inside PostgreSQL), 'scan' (PostgreSQL without pgvector: every vector
   * read, the same answers, slower); null: not at all (SQLite without sqlite-vec).
   */
  vectors?: string | null;
  model: { url: string; reachable: boolean; id?: string; contextSize?: number; vision?: boolean; error?: string };
  /** Every model server (LLAMA_URL may list several). */
  servers?: ModelServerHealth[];
  /** The speech servers, each null when none is set; they do not make Hearth unhealthy. */
  speech?: { stt: SpeechServerHealth | null; tts: SpeechServerHealth | null };
};
export type SpeechServerHealth = { url: string; reachable: boolean; error?: string };

export type SettingsView = {
  settings: Settings;
  defaults: Settings;
  overridden: (keyof Settings)[];
  /** What the person asking may change: their own settings (a member), or all of them (the owner, an admin). */
  editable: (keyof Settings)[];
  tools: readonly { name: string; what: string }[];
  /** Values an imported library file proposed for settings only the owner puts in force (CONFIRMED_SETTINGS). */
  proposals: SettingProposal[];
};
export type SettingProposal = { [K in ConfirmedSetting]: { key: K; value: Settings[K]; proposedAt: number } }[ConfirmedSetting];
export type ModelCheck = {
  url: string;
  reachable: boolean;
  id?: string;
  contextSize?: number;
  slots?: number;
  vision?: boolean;
  error?: string;
  /** Every model the server offers (several behind a router), as GET /api/models lists them. */
  models?: ModelView[];
};

export type SearchFilters = { threadId?: string; role?: 'user' | 'assistant'; from?: string; to?: string; thinking?: 'true' };
/** A search hit: a message, an attached file (with the message it came with) or a thread's title (no message). */
export type SearchResult = {
  /** thinking: a model's thinking, found only when the search asks for it. */
  kind: 'message' | 'attachment' | 'title' | 'thinking';
  threadId: string;
  messageId: string | null;
  title: string;
  role: 'user' | 'assistant' | null;
  snippet: string;
  /** [start, end) ranges of the snippet that matched. */
  highlights: [number, number][];
  createdAt: number;
  attachment?: { id: string; name: string };
  /** Found by meaning (past conversations embedded, a setting) rather than by its words: highlights are empty. */
  byMeaning?: true;
};
/** What an import counts: rows of each kind, and the settings the page had changed. */
/** GET /api/prompts: a saved prompt, typed as "/name" in the message box. */
export type PromptView = { id: string; name: string; text: string; createdAt: number; updatedAt: number };

export type ImportCounted =
  | 'settings'
  | 'prompts'
  | 'folders'
  | 'collections'
  | 'collectionFiles'
  | 'memories'
  | 'threads'
  | 'messages'
  | 'decisions'
  | 'turns'
  | 'turnEvents'
  | 'toolCalls'
  | 'attachments'
  | 'files';
/**
 * POST /api/import. `theme`: the file's theme, when it was applied to this browser (it had none
 * of its own chosen); a theme chosen here is kept, as every setting already made here is.
 */
export type ImportSummary = {
  source: 'library' | 'thread' | 'chatgpt' | 'open-webui' | 'librechat' | 'llama.cpp';
  added: Record<ImportCounted, number>;
  alreadyHere: Record<ImportCounted, number>;
  /** Settings the file carried that wait for the owner in Settings (a file never changes where Hearth sends data). */
  proposed: ConfirmedSetting[];
  /** Tool servers the file carried, by name: they wait for the owner in Settings → Tool servers. */
  proposedToolServers: string[];
  /** What the file held that was not imported, and why (nothing is left out silently). */
  skipped: ImportSkipped[];
  theme?: 'light' | 'dark' | 'system';
};
export type ImportSkipped = { what: string; count: number; why: string };

export type StreamedEvent = TurnEvent & { seq: number };

/** A knowledge collection as GET /api/collections lists it, with its files' progress. */
export type CollectionView = {
  id: string;
  name: string;
  /** Searched by every thread (not only those that chose it). */
  everyThread: boolean;
  /** Offered to everyone on this Hearth (set by the owner or an admin on a collection of theirs). */
  shared: boolean;
  /** Another person's collection shared with everyone: who shared it; it is read-only here. */
  sharedBy?: string;
  createdAt: number;
  updatedAt: number;
  files: number;
  /** Files indexed, and those that could not be read. */
  ready: number;
  failed: number;
  /** Passages, and how many have their vector. */
  chunks: number;
  embedded: number;
};
export type CollectionFileView = {
  id: string;
  name: string;
  mime: string;
  size: number;
  kind: string;
  /** `queued`, `indexing` (searchable by its words, vectors coming), `ready`, or `error` (see error). */
  status: 'queued' | 'indexing' | 'ready' | 'error';
  error: string | null;
  chunks: number;
  embedded: number;
  createdAt: number;
};
/** GET /api/collections/:id: the collection, its files, and how search works now. */
export type CollectionDetail = CollectionView & {
  fileList: CollectionFileView[];
  search: {
    /** Whether passages are found by meaning as well as words (an embeddings server is set). */
    byMeaning: boolean;
    /** Why vectors are not coming, when the embeddings server fails. */
    embeddingsError: string | null;
  };
};
/** A passage found, as GET /api/collections/:id/search and the search_documents tool give it. */
export type PassageView = {
  n: number;
  chunkId: number;
  fileId: string;
  fileName: string;
  collectionId: string;
  page: number | null;
  lineStart: number;
  lineEnd: number;
  text: string;
  foundBy: ('words' | 'meaning')[];
};

/** GET /api/threads: a page of the list; `nextCursor` asks for the next one. */
export type ThreadPage = { threads: ThreadSummary[]; nextCursor: string | null };
/** POST /api/threads and POST /api/folders: what was made. */
export type Created = { id: string; title: string; createdAt: number };
export type CreatedFolder = { id: string; name: string; createdAt: number };
/** POST /api/attachments: the stored file, with what Hearth read of it. */
export type UploadedAttachment = AttachmentInfo & { sha256: string; chars: number; lines: number };
/** POST /api/collections/:id/files: the files added (queued for indexing) and those a zip held that were not. */
export type CollectionFilesAdded = { files: CollectionFileView[]; skipped: { name: string; reason: string }[] };
/** GET /api/collections: the collections and whether search is by meaning too. */
export type CollectionsList = { collections: CollectionView[]; search: CollectionDetail['search'] };
/** GET /api/collections/:id/search: the passages search_documents would give. */
export type CollectionSearch = { passages: PassageView[]; byMeaning: boolean; note?: string };
/** GET /api/collections/:id/files/:fileId: a file's lines around a passage, for the citation viewer. */
export type PassageExcerpt = {
  file: CollectionFileView;
  firstLine: number;
  lines: string[];
  highlight: { from: number; to: number };
  totalLines: number;
};
/** A tool a thread's turns may be offered, and whether the thread switched it off. */
export type ThreadToolView = { name: string; source: string; description: string; enabled: boolean };
/** The Settings page's live checks of a SearXNG address and of an embeddings server. */
export type SearchCheck = { ok: boolean; results?: number; error?: string };
export type EmbeddingsCheck = { ok: true; dims: number; ms: number } | { ok: false; error: string };
/** POST …/approvals: the answer taken. */
export type ApprovalAnswer = { callId: string; answer: 'allow' | 'always' | 'deny' };
/** POST …/turns/:turnId/cancel: whether the turn is stopping, or the status it had already. */
export type CancelAnswer = { turnId: string; stopping: boolean; status: string };
/** The login's state for this browser. */
/** Who is logged in: their name and role (the page shows them, and Admin to an owner or admin). */
export type Me = { username: string; role: Role };
export type LoginAnswer = { ok: true; required: boolean; person?: Me };
/** `usernames`: whether the login form must ask for a username (more than one person can log in). */
export type SessionState = {
  required: boolean;
  loggedIn: boolean;
  person?: Me;
  usernames: boolean;
  /** Single sign-on is set up: the login page offers "Sign in with <name>". */
  signOn?: { name: string };
};
/** A person as the admin page lists them (never their password's hash). */
export type PersonInfo = {
  id: string;
  username: string;
  role: Role;
  disabled: boolean;
  createdAt: number;
  hasPassword: boolean;
  /** They sign in through the single sign-on provider (OpenID Connect). */
  singleSignOn: boolean;
  email: string | null;
  /** Turns they may begin a day; null: no limit. */
  turnsPerDay: number | null;
  /** The most fuel one of their turns may burn; null: the Settings page's budget. */
  fuelPerTurn: number | null;
};
/** An invitation not yet used: its id is the hash of the link's token (the link is shown once, when made). */
export type InviteInfo = { id: string; role: Role; createdAt: number; expiresAt: number };
export type PeopleView = { people: PersonInfo[]; invites: InviteInfo[] };
/** A new invitation: the path of its link (…/invite/<token>), shown once. */
export type CreatedInvite = { path: string; role: Role; expiresAt: number };
/** One of a person's sessions (GET /api/auth/sessions): `current` is the browser asking. */
export type SessionInfo = {
  id: string;
  createdAt: number;
  expiresAt: number;
  userAgent: string | null;
  address: string | null;
  current: boolean;
};

/** What one person's turns used of one model on one day (by day in Hearth's timezone). */
export type UsageLine = {
  username: string;
  day: string;
  model: string;
  turns: number;
  promptTokens: number;
  generatedTokens: number;
  /** Time waiting on the model server, in milliseconds. */
  modelMs: number;
};
/** GET /api/usage: the lines from `from` (YYYY-MM-DD) to today; what limits apply to the person asking. */
export type UsageView = { from: string; lines: UsageLine[]; limits?: { turnsPerDay: number | null; fuelPerTurn: number | null } };
