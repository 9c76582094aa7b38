'use client';

import { inputClass, Section, type SettingsForm } from '../form';

/** Settings → Turn budget. */
export function TurnBudgetSection({ form }: { form: SettingsForm }) {
  const { draft, set, field } = form;
  return (
    <Section title="Turn budget" hint="What one reply may spend before Hearth stops it and says so.">
      <div className="grid gap-3 sm:grid-cols-3">
        {field(
          'turnFuel',
          'Fuel',
          <input
            id="setting-turnFuel-input"
            type="number"
            min={100}
            className={inputClass}
            value={draft.turnFuel}
            onChange={(e) => set('turnFuel', Number(e.target.value))}
          />,
          'A model call costs 100.',
        )}
        {field(
          'maxRounds',
          'Rounds',
          <input
            id="setting-maxRounds-input"
            type="number"
            min={1}
            max={20}
            className={inputClass}
            value={draft.maxRounds}
            onChange={(e) => set('maxRounds', Number(e.target.value))}
          />,
        )}
        {field(
          'turnModelCalls',
          'Model calls',
          <input
            id="setting-turnModelCalls-input"
            type="number"
            min={1}
            max={200}
            className={inputClass}
            value={draft.turnModelCalls}
            onChange={(e) => set('turnModelCalls', Number(e.target.value))}
          />,
        )}
      </div>
    </Section>
  );
}
