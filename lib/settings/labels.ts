import type { SettingKey } from './settings';

/** Each setting as the Settings page labels it, for messages that name one (keep in step with components/settings/SettingsPage.tsx). */
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
};

/** A path into a settings change as the page labels it: "Fuel", "Server 2 URL". */
export function settingLabel(path: readonly PropertyKey[]): string | undefined {
  if (path.length === 0) return 'Settings';
  const [key, index, part] = path;
  if (key === 'modelServers' && typeof index === 'number') {
    if (part === 'url') return `Server ${index + 1} URL`;
    if (part === 'model') return `Server ${index + 1} model name`;
    return `Server ${index + 1}`;
  }
  return typeof key === 'string' && key in SETTING_LABELS ? SETTING_LABELS[key as SettingKey] : undefined;
}
