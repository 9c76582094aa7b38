import 'server-only';
import type { Store } from '@/db/store';
import type { Config } from '@/lib/config';
import {
  effectiveSettings,
  patchRows,
  settingsFromConfig,
  TOOL_CATALOG,
  type SettingKey,
  type Settings,
  type SettingsPatch,
} from '@/lib/settings/settings';

/**
 * The settings in force (lib/settings), read from SQLite once and again after each change;
 * `onChange` hears which settings changed, so the runtime rebuilds what depends on them.
 */
export class SettingsService {
  private cached: { settings: Settings; overridden: SettingKey[] } | null = null;
  readonly defaults: Settings;

  constructor(
    config: Config,
    private readonly store: Pick<Store, 'storedSettings' | 'writeSettings'>,
    private readonly onChange: (changed: SettingKey[]) => void = () => undefined,
  ) {
    this.defaults = settingsFromConfig(config);
  }

  private read() {
    this.cached ??= effectiveSettings(this.defaults, this.store.storedSettings());
    return this.cached;
  }

  current(): Settings {
    return this.read().settings;
  }

  /** What GET /api/settings answers: the settings, the environment's values, which are changed here, the tools. */
  view() {
    const { settings, overridden } = this.read();
    return { settings, defaults: this.defaults, overridden, tools: TOOL_CATALOG };
  }

  update(patch: SettingsPatch, now: number) {
    this.store.writeSettings({ ...patchRows(patch), now });
    return this.reread();
  }

  /** Reads the stored settings again (an import wrote some), telling `onChange` what changed. */
  reread() {
    const before = this.current();
    this.cached = null;
    const after = this.current();
    const changed = (Object.keys(after) as SettingKey[]).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]));
    if (changed.length) this.onChange(changed);
    return this.view();
  }
}
