'use client';

import { inputClass, Section, type SettingsForm } from '../form';

/** Settings → The assistant. */
export function AssistantSection({ form }: { form: SettingsForm }) {
  const { draft, set, field } = form;
  return (
    <Section title="The assistant">
      {field(
        'assistantName',
        'Name',
        <input
          id="setting-assistantName-input"
          className={inputClass}
          value={draft.assistantName}
          onChange={(e) => set('assistantName', e.target.value)}
        />,
      )}
      {field(
        'defaultInstructions',
        'Instructions for every conversation',
        <textarea
          id="setting-defaultInstructions-input"
          rows={4}
          className={inputClass}
          value={draft.defaultInstructions}
          placeholder="For example: answer briefly; use metric units."
          onChange={(e) => set('defaultInstructions', e.target.value)}
        />,
        "Each conversation's own instructions come after these.",
      )}
    </Section>
  );
}
