import { SETTING_LABELS, type SettingKey } from '@/lib/contract/settings';

export { SETTING_LABELS };

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
