'use client';

import { inputClass, Section, type SettingsForm } from '../form';

/** Settings → You. */
export function YouSection({ form }: { form: SettingsForm }) {
  const { draft, set, field } = form;
  const timezones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return (
    <Section title="You">
      {field(
        'userName',
        'Your name',
        <input
          id="setting-userName-input"
          className={inputClass}
          value={draft.userName}
          onChange={(e) => set('userName', e.target.value)}
        />,
      )}
      {field(
        'timezone',
        'Timezone',
        <>
          <input
            id="setting-timezone-input"
            list="timezones"
            className={inputClass}
            value={draft.timezone}
            onChange={(e) => set('timezone', e.target.value)}
          />
          <datalist id="timezones">
            {timezones.map((tz) => (
              <option key={tz} value={tz} />
            ))}
          </datalist>
        </>,
        'For the date the model is told and the now tool.',
      )}
      {field(
        'location',
        'Location',
        <input
          id="setting-location-input"
          className={inputClass}
          value={draft.location}
          placeholder="City, country"
          onChange={(e) => set('location', e.target.value)}
        />,
        'For weather, local news and "near me".',
      )}
      {field(
        'memory',
        'Memory',
        <label className="flex items-center gap-2 text-sm">
          <input id="setting-memory-input" type="checkbox" checked={draft.memory} onChange={(e) => set('memory', e.target.checked, true)} />
          Remember facts about me and use them in every conversation
        </label>,
        'Off: the remember tool is not offered and no kept fact is given to the model (the facts stay in Memory until you delete them).',
      )}
    </Section>
  );
}
