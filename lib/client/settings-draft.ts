import type { Settings } from '@/lib/contract/settings';

/** What the Settings page compares and says while it saves each change as it is made (components/settings/useSettingsDraft). */

type Key = keyof Settings;

export const SAVED = 'Saved. Changes apply from the next reply.';
export const unsavedWords = (n: number) => `${n} change${n === 1 ? '' : 's'} not saved`;

/** What the server is sent for a key: a model server row with neither address nor model is still being written. */
export function valueToSave<K extends Key>(key: K, value: Settings[K]): Settings[K] {
  if (key !== 'modelServers') return value;
  return (value as Settings['modelServers']).filter((s) => s.url.trim() || s.model.trim()) as Settings[K];
}

export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The keys whose value on the page differs from the one in force. */
export function pendingKeys(draft: Settings, saved: Settings): Key[] {
  return (Object.keys(draft) as Key[]).filter((k) => !same(valueToSave(k, draft[k]), saved[k]));
}
