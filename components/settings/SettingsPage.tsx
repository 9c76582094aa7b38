'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { Me } from '@/lib/contract/responses';
import { unsavedWords } from '@/lib/client/settings-draft';
import { useSettingsDraft } from './useSettingsDraft';
import { SettingsContents } from './SettingsGuide';
import { Section, settingsForm } from './form';
import { AssistantSection } from './sections/Assistant';
import { ChecksSection } from './sections/Checks';
import { EmbeddingsSection } from './sections/Embeddings';
import { ModelServersSection } from './sections/ModelServers';
import { ThinkingSection } from './sections/Thinking';
import { ToolsSection } from './sections/Tools';
import { TurnBudgetSection } from './sections/TurnBudget';
import { VoiceSection } from './sections/Voice';
import { MembersSection } from './sections/Members';
import { YourUsage } from './YourUsage';
import { YouSection } from './sections/You';
import { ImportedProposals } from './ImportedProposals';
import { ToolServers } from './ToolServers';
import { SavedPrompts } from './SavedPrompts';
import { Sessions } from './Sessions';
import { ThemePicker } from '@/components/ThemePicker';

/**
 * Settings, kept in Hearth's database over the environment's defaults: the model servers (each
 * checked live), who the assistant and the user are, the tools, SearXNG (with a test search)
 * and the turn budget. Each change is saved as it is made (useSettingsDraft) and applies from the
 * next reply; "Default" puts one back. Each section is a file of sections/ over the one draft.
 */
export function SettingsPage() {
  const router = useRouter();
  /** Who is logged in: a member sees the shared settings but does not change them. */
  const [me, setMe] = useState<Me | null>(null);
  useEffect(() => {
    api
      .session()
      .then((s) => setMe(s.person ?? null))
      .catch(() => undefined);
  }, []);
  const member = me?.role === 'member';
  const { view, draft, status, setStatus, saving, invalid, unsaved, unsavedNow, load, set, commit, reset } = useSettingsDraft();

  if (!view || !draft) {
    return <main className="mx-auto max-w-3xl p-6">{status ? <p role="alert">{status.text}</p> : <p>Loading settings…</p>}</main>;
  }

  // Going back to the chats saves what is pending first; a change the server refused is named before it is left behind.
  const leave = async (e: React.MouseEvent) => {
    e.preventDefault();
    await commit();
    const left = unsavedNow();
    if (left && !window.confirm(`${unsavedWords(left)}, as the line at the bottom says. Leave anyway?`)) return;
    router.push('/');
  };

  const form = settingsForm({ view, draft, set, reset, invalid });

  return (
    // The form scrolls in its own region and the status bar sits below it, never over it: the last
    // setting is reachable, focus moves scroll the form, and nothing shows through the bar.
    <main className="flex h-dvh flex-col">
      {/* A box is saved when focus leaves it or on Enter; switches and choices save themselves. */}
      <div
        data-testid="settings-form"
        className="min-h-0 flex-1 overflow-y-auto"
        onBlur={() => void commit()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && e.target instanceof HTMLInputElement) void commit();
        }}
      >
        <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
          <header className="flex items-center gap-3">
            <Link href="/" className="text-sm underline" data-testid="back-to-chat" onClick={(e) => void leave(e)}>
              ← Chats
            </Link>
            <h1 className="text-xl font-semibold">Settings</h1>
            {me && me.role !== 'member' && (
              <Link href="/admin" className="ml-auto text-sm underline" data-testid="people-link">
                People →
              </Link>
            )}
          </header>
          <SettingsContents />
          <ImportedProposals
            view={view}
            onView={(v) => {
              // Applying one changes the settings in force; the edits not yet saved stay.
              load(v, true);
              setStatus({ ok: true, text: 'Done. Applied settings take effect from the next reply.' });
            }}
          />

          {member && (
            <p
              role="note"
              data-testid="shared-settings"
              className="rounded-md bg-amber-50 p-3 text-sm text-amber-950 dark:bg-stone-900 dark:text-amber-100"
            >
              Your name, instructions, timezone, location, memory, thinking and voice are your own. The other settings are shared by
              everyone on this Hearth: only its owner or an admin changes them.
            </p>
          )}
          {/* The household's sections: a member sees them, greyed. Those with a person's own settings mark each field (form.tsx). */}
          <fieldset disabled={member} className="m-0 min-w-0 space-y-4 border-0 p-0">
            <ModelServersSection form={form} />

            <ChecksSection form={form} />
          </fieldset>

          <AssistantSection form={form} />

          <YouSection form={form} />

          <fieldset disabled={member} className="m-0 min-w-0 space-y-4 border-0 p-0">
            <ToolsSection form={form} />

            <EmbeddingsSection form={form} />
          </fieldset>

          <ThinkingSection form={form} />

          <VoiceSection form={form} />

          {!member && <MembersSection form={form} />}

          <fieldset disabled={member} className="m-0 min-w-0 space-y-4 border-0 p-0">
            <TurnBudgetSection form={form} />
          </fieldset>

          <Section
            title="Saved prompts"
            hint="Type / in the message box and a name: the prompt's text takes its place, ready to finish and send."
          >
            <SavedPrompts />
          </Section>

          {!member && (
            <Section title="Tool servers" hint="Tools from your own MCP servers: files, a calendar, Home Assistant, a database.">
              <ToolServers />
            </Section>
          )}

          <Section title="Appearance">
            <ThemePicker />
          </Section>

          <Section title="Your usage" hint="What your turns used of the model servers in the last 30 days, by day and model.">
            <YourUsage />
          </Section>

          {me && (
            <Section
              title="Your sessions"
              hint={`Logged in as ${me.username}. Every browser you logged in from; end any you no longer use.`}
            >
              <Sessions />
            </Section>
          )}
        </div>
      </div>
      <div
        data-testid="settings-bar"
        className="shrink-0 border-t border-stone-200 bg-stone-50 p-3 dark:border-stone-800 dark:bg-stone-950"
      >
        <div className="mx-auto flex max-w-3xl items-center gap-3">
          {saving && !status && <span className="text-sm text-stone-600 dark:text-stone-400">Saving…</span>}
          {!saving && !status && (
            <span className="text-sm text-stone-600 dark:text-stone-400">
              {unsaved > 0
                ? unsavedWords(unsaved)
                : 'Changes are saved as you make them: a box when you leave it, a switch as you flip it.'}
            </span>
          )}
          {status && (
            <span
              id="settings-status"
              role={status.ok ? 'status' : 'alert'}
              data-testid="settings-status"
              className={`text-sm ${status.ok ? 'text-emerald-800 dark:text-emerald-300' : 'text-red-700 dark:text-red-300'}`}
            >
              {status.text}
            </span>
          )}
        </div>
      </div>
    </main>
  );
}
