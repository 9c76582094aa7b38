'use client';

import { cloneElement, isValidElement } from 'react';
import type { SettingsView } from '@/lib/contract/responses';
import type { Settings } from '@/lib/contract/settings';
import { sectionId } from './SettingsGuide';

/** The parts every Settings section is built of: its box, a labelled field, a live check's line. */

export type SettingKey = keyof Settings;

// A field the server refused is marked (aria-invalid) with a red border, beside the message naming it.
export const inputClass =
  'w-full rounded-md border border-stone-300 bg-white px-2 py-1 text-sm dark:border-stone-700 dark:bg-stone-900 aria-[invalid=true]:border-red-600 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600';
/** The id of the input for a field's path ("turnFuel", "modelServers.0.url"), to mark and focus it. */
export const inputId = (path: string) => `setting-${path.replace(/\./g, '-')}-input`;
export const buttonClass =
  'rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800';

export function Section({ title, children, hint }: { title: string; hint?: string; children: React.ReactNode }) {
  return (
    <section id={sectionId(title)} className="scroll-mt-4 space-y-3 rounded-xl border border-stone-200 p-4 dark:border-stone-800">
      <div>
        <h2 className="font-semibold">{title}</h2>
        {hint && <p className="text-sm text-stone-600 dark:text-stone-400">{hint}</p>}
      </div>
      {children}
    </section>
  );
}

/** What a Test or Check button found: under way, or its sentence (green when it worked). */
export function LiveCheck({
  testId,
  check,
  pending,
}: {
  testId: string;
  check: { ok: boolean; text: string } | 'checking' | null;
  pending: string;
}) {
  if (!check) return null;
  const failed = check !== 'checking' && !check.ok;
  return (
    <p data-testid={testId} className={`text-xs ${failed ? 'text-red-700 dark:text-red-300' : 'text-emerald-800 dark:text-emerald-300'}`}>
      {check === 'checking' ? pending : check.text}
    </p>
  );
}

/** What a section reads and changes: the settings on the page, the view they came in, and the field maker. */
export type SettingsForm = {
  view: SettingsView;
  draft: Settings;
  /** Changes a value; `now` saves it at once (a switch, a choice, a row added or removed). */
  set: <K extends SettingKey>(key: K, value: Settings[K], now?: boolean) => void;
  /** Puts a setting back to the environment's value. */
  reset: (key: SettingKey) => Promise<void>;
  /** The attributes that mark the field a save was refused for. */
  marked: (path: string) => { 'aria-invalid'?: true; 'aria-describedby'?: string };
  /** A labelled field, with "Default" when the saved value is not the environment's; marked when a save was refused for it. */
  field: (key: SettingKey, label: string, control: React.ReactNode, hint?: string) => React.ReactNode;
};

/** The form a section gets, over the page's one draft (useSettingsDraft). */
export function settingsForm(p: Omit<SettingsForm, 'field' | 'marked'> & { invalid: string | null }): SettingsForm {
  const { view, invalid, reset } = p;
  const marked = (path: string) => (invalid === path ? ({ 'aria-invalid': true, 'aria-describedby': 'settings-status' } as const) : {});
  const field = (key: SettingKey, label: string, control: React.ReactNode, hint?: string) => (
    <div className="space-y-1" data-testid={`setting-${key}`} data-invalid={invalid === key || undefined}>
      <div className="flex items-center gap-2">
        <label htmlFor={`setting-${key}-input`} className="text-sm font-medium">
          {label}
        </label>
        {view.overridden.includes(key) && view.editable.includes(key) && (
          <button
            type="button"
            data-testid={`reset-${key}`}
            className="ml-auto text-xs underline"
            onClick={() => void reset(key)}
            title="Use the value from Hearth's environment again"
          >
            Default
          </button>
        )}
      </div>
      {/* What the person asking may not change (a member, the household's settings) is shown, not editable. */}
      <fieldset disabled={!view.editable.includes(key)} className="m-0 min-w-0 border-0 p-0">
        {invalid === key && isValidElement<Record<string, unknown>>(control) ? cloneElement(control, marked(key)) : control}
      </fieldset>
      {hint && <p className="text-xs text-stone-600 dark:text-stone-400">{hint}</p>}
    </div>
  );
  return { view: p.view, draft: p.draft, set: p.set, reset, marked, field };
}
