import { z } from 'zod';
import { isHttpUrl, isTimezone } from './checks';

/**
 * What the Settings page changes, and the shape each setting must have: the page and the
 * server check the same shapes. Defaults, storage and what is in force are the server's
 * (lib/services/settings-values.ts).
 */

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .refine(isHttpUrl, 'must be an http(s) URL')
  .transform((u) => u.replace(/\/+$/, ''));

/** The tools a user can switch off, with what each one is for. */
export const TOOL_CATALOG = [
  { name: 'web_search', what: 'Search the web (through your SearXNG)' },
  { name: 'fetch_url', what: 'Read a web page or a PDF' },
  { name: 'calculator', what: 'Exact arithmetic' },
  { name: 'now', what: 'The date and time in your timezone' },
  { name: 'remember', what: 'Keep and forget facts about you' },
  { name: 'search_conversations', what: 'Look through your earlier conversations' },
  { name: 'read_attachment', what: 'Read an attached file' },
  { name: 'grep_attachment', what: 'Search inside an attached file' },
  { name: 'query_table', what: 'Exact totals, counts and averages over an attached table' },
  { name: 'search_documents', what: 'Search your knowledge collections' },
] as const;
export type ToolName = (typeof TOOL_CATALOG)[number]['name'];
const toolNames = TOOL_CATALOG.map((t) => t.name) as [ToolName, ...ToolName[]];

export const SETTING_SHAPES = {
  /** The llama-servers turns go to, each with the model name to ask for (empty: the server's own). */
  modelServers: z
    .array(z.object({ url: httpUrl, model: z.string().trim().max(200).default('') }).strict())
    .min(1, 'give at least one model server')
    .max(16)
    .refine((list) => new Set(list.map((s) => s.url)).size === list.length, 'a server is listed twice'),
  /** A small model for decide steps, plans and titles; empty: each turn's own model does them. */
  checksModel: z.string().trim().max(200),
  /** The verdict judges every draft the free layer does not set aside; off: the classifier's "clearly an answer" skips it. */
  judgeEveryAnswer: z.boolean(),
  /** Slots per server when its /props cannot say; null: as the server says. */
  modelSlots: z.number().int().min(1).max(64).nullable(),
  assistantName: z.string().trim().min(1, 'give the assistant a name').max(60),
  /** Instructions for every conversation (each thread can add its own). */
  defaultInstructions: z.string().max(20_000),
  userName: z.string().trim().max(60),
  timezone: z.string().trim().refine(isTimezone, 'must be an IANA timezone such as Europe/Paris'),
  location: z.string().trim().max(200),
  /** Empty: web search is off. */
  searxngUrl: z.union([z.literal(''), httpUrl]),
  /** A llama-server with --embeddings for knowledge collections; empty: they search by words alone. */
  embeddingsUrl: z.union([z.literal(''), httpUrl]),
  /** The embedding model to ask that server for (empty: the one it serves). */
  embeddingsModel: z.string().trim().max(200),
  /** Messages are embedded too: Ctrl+K finds past conversations by meaning as well as by their words. */
  conversationsByMeaning: z.boolean(),
  disabledTools: z
    .array(z.enum(toolNames))
    .max(toolNames.length)
    .transform((list) => [...new Set(list)]),
  turnFuel: z.number().int().min(100).max(1_000_000),
  maxRounds: z.number().int().min(1).max(20),
  turnModelCalls: z.number().int().min(1).max(200),
  /** Thinking models: left to the model ("default"), or asked on or off; a thread may choose its own. */
  thinking: z.enum(['default', 'on', 'off']),
  /** Earlier answers go back to the model with their thinking. */
  thinkingInHistory: z.boolean(),
  /** A speech-to-text server (OpenAI's /v1/audio/transcriptions); empty: the browser's own, where it has one. */
  sttUrl: z.union([z.literal(''), httpUrl]),
  /** The transcription model to ask it for (empty: whisper-1, which a server of one model ignores). */
  sttModel: z.string().trim().max(200),
  /** A text-to-speech server (OpenAI's /v1/audio/speech); empty: the browser's own voice, where it has one. */
  ttsUrl: z.union([z.literal(''), httpUrl]),
  /** The speech model to ask it for (empty: tts-1, which a server of one model ignores). */
  ttsModel: z.string().trim().max(200),
  /** The voice, as the server names it (empty: the server's own). */
  ttsVoice: z.string().trim().max(200),
  /** How fast answers are spoken: 1 is the voice's own pace. */
  speechSpeed: z.number().min(0.5).max(2),
  /** Every answer is read aloud as it is written, without asking. */
  autoSpeak: z.boolean(),
  /** What is said to Hearth is kept: the recording becomes an attachment of the message it sent, with its transcript. */
  keepRecordings: z.boolean(),
  /** Hearth keeps facts about you (the remember tool) and gives them to every conversation; off: neither. */
  memory: z.boolean(),
  /** Tools members' turns are never offered (on top of those switched off for everyone). */
  memberDisabledTools: z
    .array(z.enum(toolNames))
    .max(toolNames.length)
    .transform((list) => [...new Set(list)]),
  /** Members' turns are offered the tool servers' tools too (they reach what those servers reach: the owner's files, a calendar). */
  memberToolServers: z.boolean(),
  /** The models members may choose for a thread or an answer; empty: any a server offers (the default model is always theirs). */
  memberModels: z
    .array(z.string().trim().min(1).max(200))
    .max(100)
    .transform((list) => [...new Set(list)]),
} as const;

export type SettingKey = keyof typeof SETTING_SHAPES;
export type Settings = { [K in SettingKey]: z.output<(typeof SETTING_SHAPES)[K]> };
export const SETTING_KEYS = Object.keys(SETTING_SHAPES) as SettingKey[];

/** Each setting as the Settings page labels it, for messages that name one (keep in step with components/settings/sections/). */
export const SETTING_LABELS: Record<SettingKey, string> = {
  modelServers: 'Model servers',
  checksModel: 'Checks model',
  judgeEveryAnswer: 'Every answer',
  modelSlots: 'Slots per server',
  assistantName: 'Name',
  defaultInstructions: 'Instructions for every conversation',
  userName: 'Your name',
  timezone: 'Timezone',
  location: 'Location',
  searxngUrl: 'SearXNG address (web search)',
  embeddingsUrl: 'Embeddings server',
  embeddingsModel: 'Embedding model name',
  conversationsByMeaning: 'Past conversations',
  disabledTools: 'Tools',
  turnFuel: 'Fuel',
  maxRounds: 'Rounds',
  turnModelCalls: 'Model calls',
  thinking: 'Thinking',
  thinkingInHistory: 'Earlier thinking',
  sttUrl: 'Speech-to-text server',
  sttModel: 'Transcription model',
  ttsUrl: 'Text-to-speech server',
  ttsModel: 'Speech model',
  ttsVoice: 'Voice',
  speechSpeed: 'Speed',
  autoSpeak: 'Read answers aloud',
  keepRecordings: 'Keep recordings',
  memory: 'Memory',
  memberDisabledTools: "Tools members can't use",
  memberToolServers: 'Tool servers for members',
  memberModels: 'Models members may choose',
};

/**
 * The settings that are each person's own: every person has theirs, kept in their own library
 * (the owner's are the main library's, as before accounts). The rest are the household's, kept
 * in the main library, and only the owner or an admin changes them.
 */
export const PERSONAL_SETTINGS = [
  'userName',
  'defaultInstructions',
  'timezone',
  'location',
  'thinking',
  'thinkingInHistory',
  'ttsVoice',
  'speechSpeed',
  'autoSpeak',
  'keepRecordings',
  'memory',
] as const satisfies readonly SettingKey[];
export const isPersonalSetting = (key: string): key is (typeof PERSONAL_SETTINGS)[number] =>
  (PERSONAL_SETTINGS as readonly string[]).includes(key);

/** A change from the page: any of the settings, or null to go back to the environment's value. */
export const settingsPatch = z
  .object(
    Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTING_SHAPES[k].nullable().optional()])) as {
      [K in SettingKey]: z.ZodOptional<z.ZodNullable<(typeof SETTING_SHAPES)[K]>>;
    },
  )
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'give at least one setting');
export type SettingsPatch = z.infer<typeof settingsPatch>;

/**
 * Settings that change where Hearth sends conversations, or what it runs and asks: the model,
 * checks, embeddings, search and speech servers (a voice is what was said), the instructions every conversation gets, which tools
 * are on. A library file is data, not configuration: an import only proposes these, and each
 * one takes effect when the owner applies it in Settings (GET /api/settings lists them).
 */
export const CONFIRMED_SETTINGS = [
  'modelServers',
  'checksModel',
  'embeddingsUrl',
  'embeddingsModel',
  'conversationsByMeaning',
  'searxngUrl',
  'sttUrl',
  'ttsUrl',
  'defaultInstructions',
  'disabledTools',
  'memberDisabledTools',
  'memberToolServers',
  'memberModels',
] as const satisfies readonly SettingKey[];
export type ConfirmedSetting = (typeof CONFIRMED_SETTINGS)[number];
export const isConfirmedSetting = (key: string): key is ConfirmedSetting => (CONFIRMED_SETTINGS as readonly string[]).includes(key);

const proposalKeys = z.array(z.enum(CONFIRMED_SETTINGS)).max(CONFIRMED_SETTINGS.length);
/** POST /api/settings/proposals: proposals the owner applies, or dismisses, by key. */
export const proposalsAction = z
  .object({ apply: proposalKeys.optional(), dismiss: proposalKeys.optional() })
  .strict()
  .refine((a) => (a.apply?.length ?? 0) + (a.dismiss?.length ?? 0) > 0, 'name at least one proposal to apply or dismiss');
export type ProposalsAction = z.infer<typeof proposalsAction>;
