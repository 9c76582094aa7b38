import type { Config } from '@/lib/shared/config';
import { SETTING_KEYS, SETTING_SHAPES, type SettingKey, type Settings, type SettingsPatch } from '@/lib/contract/settings';

export {
  SETTING_KEYS,
  SETTING_SHAPES,
  settingsPatch,
  TOOL_CATALOG,
  type SettingKey,
  type Settings,
  type SettingsPatch,
  type ToolName,
} from '@/lib/contract/settings';

/**
 * What the Settings page changes. The environment gives every default (lib/shared/config.ts); a
 * setting saved in the page is kept in SQLite and wins over it until it is reset. Each
 * setting is read and checked on its own, so one bad stored value falls back to its default
 * instead of taking the others with it. Changes apply from the next turn, without a restart.
 */

/** The settings as the environment gives them. */
export function settingsFromConfig(config: Config): Settings {
  return {
    modelServers: config.LLAMA_URL.map((url) => ({ url, model: config.LLAMA_MODEL ?? '' })),
    modelSlots: config.MODEL_SLOTS ?? null,
    checksModel: config.HEARTH_CHECKS_MODEL ?? '',
    judgeEveryAnswer: config.HEARTH_JUDGE_EVERY_ANSWER === 'true',
    assistantName: config.HEARTH_ASSISTANT_NAME,
    defaultInstructions: '',
    userName: '',
    timezone: config.HEARTH_TIMEZONE,
    location: config.HEARTH_LOCATION ?? '',
    searxngUrl: config.SEARXNG_URL ?? '',
    embeddingsUrl: config.EMBEDDINGS_URL ?? '',
    embeddingsModel: config.EMBEDDINGS_MODEL ?? '',
    conversationsByMeaning: config.HEARTH_CONVERSATIONS_BY_MEANING === 'true',
    disabledTools: [],
    turnFuel: config.TURN_FUEL,
    maxRounds: config.MAX_ROUNDS,
    turnModelCalls: config.TURN_MODEL_CALLS,
    thinking: config.HEARTH_THINKING,
    thinkingInHistory: config.HEARTH_THINKING_HISTORY === 'true',
    sttUrl: config.HEARTH_STT_URL ?? '',
    sttModel: config.HEARTH_STT_MODEL ?? '',
    ttsUrl: config.HEARTH_TTS_URL ?? '',
    ttsModel: config.HEARTH_TTS_MODEL ?? '',
    ttsVoice: config.HEARTH_TTS_VOICE ?? '',
    speechSpeed: 1,
    autoSpeak: false,
    keepRecordings: false,
    memory: true,
    memberDisabledTools: [],
    memberToolServers: false,
    memberModels: [],
  };
}

/** The settings in force: each stored value that still passes its check, else the default. */
export function effectiveSettings(defaults: Settings, stored: Record<string, unknown>): { settings: Settings; overridden: SettingKey[] } {
  const settings = { ...defaults } as Record<SettingKey, unknown>;
  const overridden: SettingKey[] = [];
  for (const key of SETTING_KEYS) {
    if (!(key in stored)) continue;
    const parsed = SETTING_SHAPES[key].safeParse(stored[key]);
    if (!parsed.success) continue;
    settings[key] = parsed.data;
    overridden.push(key);
  }
  return { settings: settings as Settings, overridden };
}

/** A patch as rows to write and keys to reset. */
export function patchRows(patch: SettingsPatch): { set: Partial<Settings>; reset: SettingKey[] } {
  const set: Record<string, unknown> = {};
  const reset: SettingKey[] = [];
  for (const [key, value] of Object.entries(patch) as [SettingKey, unknown][]) {
    if (value === undefined) continue;
    if (value === null) reset.push(key);
    else set[key] = value;
  }
  return { set: set as Partial<Settings>, reset };
}
