'use client';

import { inputClass, Section, type SettingsForm } from '../form';

/** Settings → Thinking. */
export function ThinkingSection({ form }: { form: SettingsForm }) {
  const { draft, set, field } = form;
  return (
    <Section
      title="Thinking"
      hint="For models that think before they answer (Qwen3, gpt-oss, DeepSeek-R1 distills, Magistral). Checks and titles never think. Each thread can choose its own in its header."
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {field(
          'thinking',
          'Thinking',
          <select
            id="setting-thinking-input"
            className={inputClass}
            value={draft.thinking}
            onChange={(e) => set('thinking', e.target.value as typeof draft.thinking, true)}
          >
            <option value="default">the model&apos;s default</option>
            <option value="on">on</option>
            <option value="off">off (faster answers)</option>
          </select>,
          'On or off is asked of the model with every reply; a model that cannot switch thinking ignores it. How it is sent is in the manual (Thinking models).',
        )}
        {field(
          'thinkingInHistory',
          'Earlier thinking',
          <label className="flex items-center gap-2 text-sm">
            <input
              id="setting-thinkingInHistory-input"
              type="checkbox"
              checked={draft.thinkingInHistory}
              onChange={(e) => set('thinkingInHistory', e.target.checked, true)}
            />
            Send earlier answers back with their thinking
          </label>,
          'Most templates (Qwen3, gpt-oss) leave it out of earlier turns anyway; it costs context.',
        )}
      </div>
    </Section>
  );
}
