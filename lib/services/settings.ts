import 'server-only';
import type { Store } from '@/db/store';
import type { Config } from '@/lib/shared/config';
import type { SettingProposal } from '@/lib/contract/responses';
import {
  isConfirmedSetting,
  isPersonalSetting,
  PERSONAL_SETTINGS,
  SETTING_KEYS,
  SETTING_LABELS,
  type ConfirmedSetting,
} from '@/lib/contract/settings';
import type { Role } from '@/lib/contract/statuses';
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

type SettingsStore = Pick<Store, 'storedSettings' | 'writeSettings' | 'settingProposals' | 'acceptProposals' | 'dismissProposals'>;

/**
 * Several processes on one database (lib/turns/supervisor/cluster.ts): a change made through one
 * is said to the others, which read the library's settings again, so every process serves the
 * settings in force. `listen` also hears that the link was lost and is back (something may have
 * been missed); it returns how to stop.
 */
export type SettingsLink = { send(): void; listen(heard: () => void): () => void };

/**
 * The settings in force (settings-values.ts), read from the store when opened and again after
 * each change, and kept: what is in force is asked everywhere, at once. `onChange` hears which
 * settings changed, so the runtime rebuilds what depends on them.
 */
export class SettingsService {
  readonly defaults: Settings;

  private constructor(
    config: Config,
    private readonly store: SettingsStore,
    private readonly onChange: (changed: SettingKey[]) => void,
    private cached: { settings: Settings; overridden: SettingKey[] },
    private readonly link?: SettingsLink,
  ) {
    this.defaults = settingsFromConfig(config);
  }

  /** The settings of a library, read from its store; `link` to the other processes on its database. */
  static async open(
    config: Config,
    store: SettingsStore,
    onChange: (changed: SettingKey[]) => void = () => undefined,
    link?: SettingsLink,
  ): Promise<SettingsService> {
    const service = new SettingsService(
      config,
      store,
      onChange,
      effectiveSettings(settingsFromConfig(config), await store.storedSettings()),
      link,
    );
    link?.listen(() => void service.reread({ heard: true }).catch(() => undefined));
    return service;
  }

  current(): Settings {
    return this.cached.settings;
  }

  /** The keys a stored value is in force for (the rest are the environment's). */
  overridden(): SettingKey[] {
    return this.cached.overridden;
  }

  /** The household's settings with no one's own in them (each person's own are the environment's). */
  defaultsForNobody(): Settings {
    const current = this.current();
    return { ...current, ...Object.fromEntries(PERSONAL_SETTINGS.map((k) => [k, this.defaults[k]])) };
  }

  /** What GET /api/settings answers: the settings, the environment's values, which are changed here, the tools. */
  async view() {
    const { settings, overridden } = this.cached;
    return { settings, defaults: this.defaults, overridden, tools: TOOL_CATALOG, proposals: await this.proposals() };
  }

  /**
   * What imported files proposed and the owner has not applied: each value that passes its
   * setting's check and differs from the one in force (the owner's own backup proposes nothing
   * that is already so).
   */
  async proposals(): Promise<SettingProposal[]> {
    const current = this.current();
    const out: SettingProposal[] = [];
    for (const { key, value, proposedAt } of await this.store.settingProposals()) {
      if (!isConfirmedSetting(key)) continue;
      const parsed = SETTING_SHAPES[key].safeParse(value);
      if (!parsed.success || JSON.stringify(parsed.data) === JSON.stringify(current[key])) continue;
      out.push({ key, value: parsed.data, proposedAt } as SettingProposal);
    }
    return out;
  }

  /** The owner's word on proposals: those applied go in force as if saved in the page; both kinds are gone after. */
  async decideProposals({ apply = [], dismiss = [] }: { apply?: ConfirmedSetting[]; dismiss?: ConfirmedSetting[] }, now: number) {
    const open = new Map((await this.proposals()).map((p) => [p.key, p.value] as const));
    const missing = [...apply, ...dismiss].filter((k) => !open.has(k));
    if (missing.length) throw new HearthError('not_found', `No imported value waits for ${missing.join(', ')}.`);
    const set = Object.fromEntries(apply.map((k) => [k, open.get(k)]));
    await this.store.acceptProposals({ set, now });
    await this.store.dismissProposals(dismiss);
    return this.reread();
  }

  async update(patch: SettingsPatch, now: number) {
    await this.store.writeSettings({ ...patchRows(patch), now });
    return this.reread();
  }

  /**
   * Reads the stored settings again (a change, an import wrote some, or `heard`: another process
   * made one), telling `onChange` what changed and, for a change made here, the other processes.
   */
  async reread({ heard = false }: { heard?: boolean } = {}) {
    const before = this.current();
    this.cached = effectiveSettings(this.defaults, await this.store.storedSettings());
    const after = this.current();
    const changed = (Object.keys(after) as SettingKey[]).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]));
    if (changed.length) {
      this.onChange(changed);
      if (!heard) this.link?.send();
    }
    return this.view();
  }
}

/**
 * A person's own settings they have not set: these follow the household's (the owner chose the
 * household's timezone, its voice, whether it thinks); their name, instructions and place never
 * do (the owner's own are not theirs), and start from the environment's.
 */
const FOLLOW_HOUSEHOLD: readonly SettingKey[] = PERSONAL_SETTINGS.filter(
  (key) => key !== 'userName' && key !== 'defaultInstructions' && key !== 'location',
);

/**
 * One person's settings: the household's (SettingsService, over the main library) with their
 * own PERSONAL_SETTINGS from their own library over them. The owner's own library is the main
 * one, so for them this is the household's settings as before accounts. A member changes only
 * their own; the owner and admins change both. What an import into a person's own library
 * proposed for their own settings waits for them, as the household's waits for the owner.
 */
export class PersonalSettings {
  /** Their own library's settings (the main library's for the first owner: then unused). */
  private own!: SettingsService;
  /** Bumped when this person's own settings change (their tool set is made again). */
  version = 0;

  private constructor(
    readonly shared: SettingsService,
    /** Whether this is the main library (the first owner's), whose settings are the household's. */
    private readonly main: boolean,
    private readonly role: () => Role,
  ) {}

  /** A person's settings over their own library's store. */
  static async open(
    shared: SettingsService,
    config: Config,
    store: SettingsStore,
    main: boolean,
    role: () => Role,
    link?: SettingsLink,
  ): Promise<PersonalSettings> {
    const personal = new PersonalSettings(shared, main, role);
    // The main library's settings are the household's (`shared`, linked already).
    personal.own = await SettingsService.open(config, store, () => personal.version++, main ? undefined : link);
    return personal;
  }

  get defaults(): Settings {
    return this.shared.defaults;
  }

  current(): Settings {
    if (this.main) return this.shared.current();
    const household = this.shared.current();
    const overridden = this.own.overridden();
    const mine = this.own.current();
    const personal = Object.fromEntries(
      PERSONAL_SETTINGS.map((k) => [k, overridden.includes(k) ? mine[k] : FOLLOW_HOUSEHOLD.includes(k) ? household[k] : this.defaults[k]]),
    );
    return { ...household, ...personal };
  }

  /** What this person may change: their own settings; the household's too for the owner and admins. */
  editable(): SettingKey[] {
    return this.role() === 'member' ? [...PERSONAL_SETTINGS] : [...SETTING_KEYS];
  }

  /** What imports proposed that waits for this person: the household's for the owner and admins, their own library's for their own settings. */
  private async proposals(): Promise<SettingProposal[]> {
    const household = this.role() === 'member' ? [] : await this.shared.proposals();
    if (this.main) return household;
    return [...household, ...(await this.own.proposals()).filter((p) => isPersonalSetting(p.key))];
  }

  async view() {
    const shared = await this.shared.view();
    const overridden = this.main
      ? shared.overridden
      : [...shared.overridden.filter((k) => !isPersonalSetting(k)), ...this.own.overridden().filter(isPersonalSetting)];
    return { ...shared, settings: this.current(), overridden, editable: this.editable(), proposals: await this.proposals() };
  }

  /** A change from this person: their own settings to their library, the household's (owner and admins only) to the main one. */
  async update(patch: SettingsPatch, now: number) {
    this.mayChange(Object.keys(patch) as SettingKey[]);
    if (this.main) {
      await this.shared.update(patch, now);
    } else {
      const { mine, household } = split(patch);
      if (Object.keys(mine).length) await this.own.update(mine, now);
      if (Object.keys(household).length) await this.shared.update(household, now);
    }
    return this.view();
  }

  /** Proposals applied or dismissed: this person's own from their library, the household's (owner and admins) from the main one. */
  async decideProposals({ apply = [], dismiss = [] }: Parameters<SettingsService['decideProposals']>[0], now: number) {
    this.mayChange([...apply, ...dismiss]);
    if (this.main) {
      await this.shared.decideProposals({ apply, dismiss }, now);
      return this.view();
    }
    const waitingHere = new Set((await this.own.proposals()).map((p) => p.key));
    const here = (k: ConfirmedSetting) => isPersonalSetting(k) && waitingHere.has(k);
    const mine = { apply: apply.filter(here), dismiss: dismiss.filter(here) };
    const household = { apply: apply.filter((k) => !here(k)), dismiss: dismiss.filter((k) => !here(k)) };
    if (mine.apply.length + mine.dismiss.length) await this.own.decideProposals(mine, now);
    if (household.apply.length + household.dismiss.length) await this.shared.decideProposals(household, now);
    return this.view();
  }

  /** Reads this person's stored settings again (an import wrote some). */
  async reread() {
    if (this.main) await this.shared.reread();
    else await this.own.reread();
    return this.view();
  }

  private mayChange(keys: SettingKey[]) {
    const notMine = keys.filter((k) => !this.editable().includes(k));
    if (notMine.length)
      throw new HearthError(
        'forbidden',
        `Only this Hearth's owner or an admin changes ${notMine.map((k) => SETTING_LABELS[k]).join(', ')}: shared by everyone here.`,
      );
  }
}

/** A patch as this person's own settings and the household's. */
function split(patch: SettingsPatch): { mine: SettingsPatch; household: SettingsPatch } {
  const entries = Object.entries(patch);
  return {
    mine: Object.fromEntries(entries.filter(([k]) => isPersonalSetting(k))) as SettingsPatch,
    household: Object.fromEntries(entries.filter(([k]) => !isPersonalSetting(k))) as SettingsPatch,
  };
}
