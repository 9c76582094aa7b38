'use client';

import { Section, type SettingsForm } from '../form';

/** Settings → Checks. */
export function ChecksSection({ form }: { form: SettingsForm }) {
  const { draft, set, field } = form;
  return (
    <Section
      title="Checks"
      hint="Before an answer reaches you, Hearth checks that it answers and does not just offer to look something up."
    >
      {field(
        'judgeEveryAnswer',
        'Every answer',
        <label className="flex items-center gap-2 text-sm">
          <input
            id="setting-judgeEveryAnswer-input"
            type="checkbox"
            checked={draft.judgeEveryAnswer}
            onChange={(e) => set('judgeEveryAnswer', e.target.checked, true)}
          />
          Ask the model about every answer
        </label>,
        'On: the model reads each finished answer (a short call, while the answer is already on screen) unless it plainly carries what the tools found. Off: answers Hearth’s own classifier is confident about skip that call, a little faster, and a put-off answer it has not learned to spot can reach you.',
      )}
    </Section>
  );
}
