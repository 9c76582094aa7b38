import 'server-only';
import type { Store } from '@/db/store';
import type { Config } from '@/lib/shared/config';
import type { SettingProposal } from '@/lib/contract/responses';
import { isConfirmedSetting, type ConfirmedSetting } from '@/lib/contract/settings';
import { HearthError } from '@/lib/shared/errors';
import {
  effectiveSettings,
  SETTING_SHAPES,
  patchRows,
  settingsFromConfig,
  TOOL_CATALOG,
  type SettingKey,
  type Settings,
  type SettingsPatch,
} from '@/lib/services/settings-values';

/**
 * The settings in force (settings-values.ts), read from SQLite once and again after each change;
 * `onChange` hears which settings changed, so the runtime rebuilds what depends on them.
 */
export class SettingsService {
  private cached: { settings: Settings; overridden: SettingKey[] } | null = null;
  readonly defaults: Settings;

  constructor(
    config: Config,
    private readonly store: Pick<Store, 'storedSettings' | 'writeSettings' | 'settingProposals' | 'acceptProposals' | 'dismissProposals'>,
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
    return { settings, defaults: this.defaults, overridden, tools: TOOL_CATALOG, proposals: this.proposals() };
  }

  /**
   * What imported files proposed and the owner has not applied: each value that passes its
   * setting's check and differs from the one in force (the owner's own backup proposes nothing
   * that is already so).
   */
  proposals(): SettingProposal[] {
    const current = this.current();
    const out: SettingProposal[] = [];
    for (const { key, value, proposedAt } of this.store.settingProposals()) {
      if (!isConfirmedSetting(key)) continue;
      const parsed = SETTING_SHAPES[key].safeParse(value);
      if (!parsed.success || JSON.stringify(parsed.data) === JSON.stringify(current[key])) continue;
      out.push({ key, value: parsed.data, proposedAt } as SettingProposal);
    }
    return out;
  }

  /** The owner's word on proposals: those applied go in force as if saved in the page; both kinds are gone after. */
  decideProposals({ apply = [], dismiss = [] }: { apply?: ConfirmedSetting[]; dismiss?: ConfirmedSetting[] }, now: number) {
    const open = new Map(this.proposals().map((p) => [p.key, p.value] as const));
    const missing = [...apply, ...dismiss].filter((k) => !open.has(k));
    if (missing.length) throw new HearthError('not_found', `No imported value waits for ${missing.join(', ')}.`);
    const set = Object.fromEntries(apply.map((k) => [k, open.get(k)]));
    this.store.acceptProposals({ set, now });
    this.store.dismissProposals(dismiss);
    return this.reread();
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
