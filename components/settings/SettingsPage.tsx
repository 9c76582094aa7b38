'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { cloneElement, isValidElement, useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/lib/client/api';
import type { ModelCheck } from '@/lib/contract/responses';
import type { Settings } from '@/lib/contract/settings';
import { unsavedWords } from '@/lib/client/settings-draft';
import { useSettingsDraft } from './useSettingsDraft';
import { ChecksModelWarning, offeredModels, sectionId, SettingsContents, WebSearchWarning } from './SettingsGuide';
import { ImportedProposals } from './ImportedProposals';
import { ToolServers } from './ToolServers';
import { SavedPrompts } from './SavedPrompts';
import { toolLabel } from '@/lib/words/tools';
import { ThemePicker } from '@/components/ThemePicker';

/**
 * Settings, kept in Hearth's database over the environment's defaults: the model servers (each
 * checked live), who the assistant and the user are, the tools, SearXNG (with a test search)
 * and the turn budget. Each change is saved as it is made (useSettingsDraft) and applies from the
 * next reply; "Default" puts one back.
 */

type Key = keyof Settings;

// A field the server refused is marked (aria-invalid) with a red border, beside the message naming it.
const inputClass =
  'w-full rounded-md border border-stone-300 bg-white px-2 py-1 text-sm dark:border-stone-700 dark:bg-stone-900 aria-[invalid=true]:border-red-600 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-600';
/** The id of the input for a field's path ("turnFuel", "modelServers.0.url"), to mark and focus it. */
const inputId = (path: string) => `setting-${path.replace(/\./g, '-')}-input`;
const buttonClass =
  'rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800';

function Section({ title, children, hint }: { title: string; hint?: string; children: React.ReactNode }) {
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
function LiveCheck({
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

function CheckResult({ check }: { check: ModelCheck | 'checking' | undefined }) {
  if (!check) return null;
  if (check === 'checking') return <p className="text-xs text-stone-600 dark:text-stone-400">Checking…</p>;
  if (!check.reachable) {
    return (
      <p data-testid="server-check" data-ok="false" className="text-xs text-red-700 dark:text-red-300">
        ✗ Cannot be used: {check.error ?? 'no answer'}
      </p>
    );
  }
  const parts = [
    check.id ? `model ${check.id}` : null,
    check.contextSize ? `context ${check.contextSize.toLocaleString('en')} tokens` : null,
    check.slots ? `${check.slots} slot${check.slots === 1 ? '' : 's'}` : null,
    check.vision ? 'sees images' : null,
  ].filter(Boolean);
  // A router offers several: each with its state, so a model can be picked knowing whether it must load first.
  const offered = check.models && check.models.length > 1 ? check.models : null;
  return (
    <p data-testid="server-check" data-ok="true" className="text-xs text-emerald-800 dark:text-emerald-300">
      ✓ Answering{parts.length ? `: ${parts.join(' · ')}` : ''}
      {offered && (
        <span data-testid="server-offers" className="block">
          Offers {offered.length} models: {offered.map((m) => `${m.id}${m.state ? ` (${m.state})` : ''}`).join(', ')}
        </span>
      )}
    </p>
  );
}

/** The models a checked server offers, as suggestions for its model name field. */
function ModelChoices({ id, check }: { id: string; check: ModelCheck | 'checking' | undefined }) {
  const models = check && check !== 'checking' ? (check.models ?? []) : [];
  return (
    <datalist id={id} data-testid="server-model-choices">
      {models.map((m) => (
        <option key={m.id} value={m.id}>
          {m.state ? `${m.id} (${m.state})` : m.id}
        </option>
      ))}
    </datalist>
  );
}

export function SettingsPage() {
  const router = useRouter();
  const { view, draft, status, setStatus, saving, invalid, unsaved, unsavedNow, load, set, commit, reset } = useSettingsDraft();
  const [checks, setChecks] = useState<Record<string, ModelCheck | 'checking'>>({});
  const [searchCheck, setSearchCheck] = useState<{ ok: boolean; text: string } | 'checking' | null>(null);
  const [embeddingsCheck, setEmbeddingsCheck] = useState<{ ok: boolean; text: string } | 'checking' | null>(null);

  const checkServer = useCallback(async (url: string, model: string) => {
    setChecks((c) => ({ ...c, [url]: 'checking' }));
    try {
      const result = await api.checkModel(url, model);
      setChecks((c) => ({ ...c, [url]: result }));
    } catch (err) {
      setChecks((c) => ({ ...c, [url]: { url, reachable: false, error: (err as Error).message } }));
    }
  }, []);

  // Each saved server is checked once the page has them: the page says which ones answer.
  const checkedOnLoad = useRef(false);
  useEffect(() => {
    if (!view || checkedOnLoad.current) return;
    checkedOnLoad.current = true;
    for (const s of view.settings.modelServers) void checkServer(s.url, s.model);
  }, [view, checkServer]);

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

  const marked = (path: string) => (invalid === path ? ({ 'aria-invalid': true, 'aria-describedby': 'settings-status' } as const) : {});

  /** A labelled field, with "Default" when the saved value is not the environment's; marked when a save was refused for it. */
  const field = (key: Key, label: string, control: React.ReactNode, hint?: string) => (
    <div className="space-y-1" data-testid={`setting-${key}`} data-invalid={invalid === key || undefined}>
      <div className="flex items-center gap-2">
        <label htmlFor={`setting-${key}-input`} className="text-sm font-medium">
          {label}
        </label>
        {view.overridden.includes(key) && (
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
      {invalid === key && isValidElement<Record<string, unknown>>(control) ? cloneElement(control, marked(key)) : control}
      {hint && <p className="text-xs text-stone-600 dark:text-stone-400">{hint}</p>}
    </div>
  );

  const timezones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];

  return (
    // The form scrolls in its own region and the Save bar sits below it, never over it: the last
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

          <Section
            title="Model servers"
            hint="The llama-servers replies go to. Each is asked how it is when the page opens and when you press Check."
          >
            <ul className="space-y-3" data-testid="model-servers">
              {draft.modelServers.map((server, i) => (
                <li key={i} className="space-y-1" data-testid="model-server">
                  <div className="flex flex-wrap gap-2">
                    <input
                      id={inputId(`modelServers.${i}.url`)}
                      {...marked(`modelServers.${i}.url`)}
                      aria-label={`Server ${i + 1} URL`}
                      data-testid="server-url"
                      className={`${inputClass} min-w-0 flex-[2]`}
                      value={server.url}
                      placeholder="http://127.0.0.1:8080/v1"
                      onChange={(e) =>
                        set(
                          'modelServers',
                          draft.modelServers.map((s, j) => (j === i ? { ...s, url: e.target.value } : s)),
                        )
                      }
                    />
                    <input
                      id={inputId(`modelServers.${i}.model`)}
                      {...marked(`modelServers.${i}.model`)}
                      aria-label={`Server ${i + 1} model name`}
                      data-testid="server-model"
                      className={`${inputClass} min-w-0 flex-1`}
                      value={server.model}
                      list={`server-${i}-models`}
                      placeholder="model name (optional)"
                      onChange={(e) =>
                        set(
                          'modelServers',
                          draft.modelServers.map((s, j) => (j === i ? { ...s, model: e.target.value } : s)),
                        )
                      }
                    />
                    <ModelChoices id={`server-${i}-models`} check={checks[server.url]} />
                    <button
                      type="button"
                      data-testid="check-server"
                      className={buttonClass}
                      onClick={() => void checkServer(server.url, server.model)}
                    >
                      Check
                    </button>
                    {draft.modelServers.length > 1 && (
                      <button
                        type="button"
                        aria-label={`Remove server ${i + 1}`}
                        className={buttonClass}
                        onClick={() =>
                          set(
                            'modelServers',
                            draft.modelServers.filter((_, j) => j !== i),
                            true,
                          )
                        }
                      >
                        Remove
                      </button>
                    )}
                  </div>
                  <CheckResult check={checks[server.url]} />
                </li>
              ))}
            </ul>
            <div className="flex items-center gap-2">
              <button
                type="button"
                data-testid="add-server"
                className={buttonClass}
                onClick={() => set('modelServers', [...draft.modelServers, { url: '', model: '' }])}
              >
                Add a server
              </button>
              {view.overridden.includes('modelServers') && (
                <button
                  type="button"
                  data-testid="reset-modelServers"
                  className="text-xs underline"
                  onClick={() => void reset('modelServers')}
                >
                  Default servers
                </button>
              )}
            </div>
            {field(
              'modelSlots',
              'Slots per server',
              <input
                id="setting-modelSlots-input"
                type="number"
                min={1}
                max={64}
                className={`${inputClass} w-32`}
                value={draft.modelSlots ?? ''}
                placeholder="as the server says"
                onChange={(e) => set('modelSlots', e.target.value === '' ? null : Number(e.target.value))}
              />,
              'Leave empty to use what each server reports (llama-server --parallel).',
            )}
            {field(
              'checksModel',
              'Checks model',
              <>
                <input
                  id="setting-checksModel-input"
                  className={inputClass}
                  value={draft.checksModel}
                  list="checks-model-choices"
                  placeholder="each thread's own model"
                  onChange={(e) => set('checksModel', e.target.value)}
                />
                <datalist id="checks-model-choices">
                  {[...new Set(Object.values(checks).flatMap((c) => (c === 'checking' ? [] : (c.models ?? []).map((m) => m.id))))].map(
                    (id) => (
                      <option key={id} value={id} />
                    ),
                  )}
                </datalist>
                <ChecksModelWarning
                  model={draft.checksModel}
                  offered={offeredModels(
                    draft.modelServers.map((s) => s.url),
                    checks,
                  )}
                />
              </>,
              "A small model (0.6–1.7B) a server offers, for the checks, plans and titles: the thread's model then only writes the replies. Empty: the thread's model does it all.",
            )}
          </Section>

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
          </Section>

          <Section title="Tools" hint="A tool switched off is not offered to the model.">
            <fieldset className="grid gap-1 sm:grid-cols-2" data-testid="setting-disabledTools">
              <legend className="sr-only">Tools</legend>
              {view.tools.map((tool) => (
                <label key={tool.name} className="flex items-start gap-2 text-sm">
                  <input
                    type="checkbox"
                    data-testid={`tool-${tool.name}`}
                    checked={!draft.disabledTools.includes(tool.name as Settings['disabledTools'][number])}
                    onChange={(e) =>
                      set(
                        'disabledTools',
                        e.target.checked
                          ? draft.disabledTools.filter((t) => t !== tool.name)
                          : [...draft.disabledTools, tool.name as Settings['disabledTools'][number]],
                        true,
                      )
                    }
                    className="mt-1"
                  />
                  <span>
                    <span className="font-medium">{toolLabel(tool.name)}</span>{' '}
                    <span className="text-stone-600 dark:text-stone-400">{tool.what}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            <WebSearchWarning ticked={!draft.disabledTools.includes('web_search')} searxngUrl={draft.searxngUrl} />
            {field(
              'searxngUrl',
              'SearXNG address (web search)',
              <div className="flex gap-2">
                <input
                  id="setting-searxngUrl-input"
                  className={inputClass}
                  value={draft.searxngUrl}
                  placeholder="http://127.0.0.1:8888 (empty: web search off)"
                  onChange={(e) => set('searxngUrl', e.target.value)}
                />
                <button
                  type="button"
                  data-testid="test-searxng"
                  className={buttonClass}
                  disabled={!draft.searxngUrl.trim() || searchCheck === 'checking'}
                  onClick={() => {
                    setSearchCheck('checking');
                    api
                      .checkSearch(draft.searxngUrl.trim())
                      .then((r) =>
                        setSearchCheck(
                          r.ok
                            ? { ok: true, text: `✓ SearXNG answered a test search (${r.results} results).` }
                            : { ok: false, text: `✗ ${r.error}` },
                        ),
                      )
                      .catch((err) => setSearchCheck({ ok: false, text: `✗ ${(err as Error).message}` }));
                  }}
                >
                  Test
                </button>
              </div>,
            )}
            <LiveCheck testId="searxng-check" check={searchCheck} pending="Searching…" />
          </Section>

          <Section
            title="Knowledge (embeddings)"
            hint="A llama-server started with --embeddings and a small embedding model (bge-small-en-v1.5, nomic-embed-text, embeddinggemma, Qwen3-Embedding-0.6B): knowledge collections then find passages by meaning as well as by their words. Changing the model embeds every collection again in the background."
          >
            <div className="grid gap-3 sm:grid-cols-2">
              {field(
                'embeddingsUrl',
                'Embeddings server',
                <input
                  id="setting-embeddingsUrl-input"
                  className={inputClass}
                  value={draft.embeddingsUrl}
                  placeholder="http://127.0.0.1:8081 (empty: search by words)"
                  onChange={(e) => set('embeddingsUrl', e.target.value)}
                />,
              )}
              {field(
                'embeddingsModel',
                'Embedding model name',
                <input
                  id="setting-embeddingsModel-input"
                  className={inputClass}
                  value={draft.embeddingsModel}
                  placeholder="as the server lists it (empty: its own)"
                  onChange={(e) => set('embeddingsModel', e.target.value)}
                />,
              )}
              {field(
                'conversationsByMeaning',
                'Past conversations',
                <label className="flex items-center gap-2 text-sm">
                  <input
                    id="setting-conversationsByMeaning-input"
                    type="checkbox"
                    checked={draft.conversationsByMeaning}
                    onChange={(e) => set('conversationsByMeaning', e.target.checked, true)}
                  />
                  Find past conversations by meaning too
                </label>,
                'Every message is embedded in the background, so search (Ctrl+K) finds "that chat about the cabin in Norway" even in other words.',
              )}
            </div>
            <button
              type="button"
              data-testid="check-embeddings"
              className={buttonClass}
              disabled={!draft.embeddingsUrl.trim() || embeddingsCheck === 'checking'}
              onClick={() => {
                setEmbeddingsCheck('checking');
                api
                  .checkEmbeddings(draft.embeddingsUrl.trim(), draft.embeddingsModel.trim())
                  .then((r) =>
                    setEmbeddingsCheck(
                      r.ok
                        ? { ok: true, text: `✓ Makes embeddings: ${r.dims} dimensions, ${r.ms} ms for a sentence.` }
                        : { ok: false, text: `✗ ${r.error}` },
                    ),
                  )
                  .catch((err) => setEmbeddingsCheck({ ok: false, text: `✗ ${(err as Error).message}` }));
              }}
            >
              Check
            </button>
            <LiveCheck testId="embeddings-check" check={embeddingsCheck} pending="Checking…" />
          </Section>

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

          <Section
            title="Saved prompts"
            hint="Type / in the message box and a name: the prompt's text takes its place, ready to finish and send."
          >
            <SavedPrompts />
          </Section>

          <Section title="Tool servers" hint="Tools from your own MCP servers: files, a calendar, Home Assistant, a database.">
            <ToolServers />
          </Section>

          <Section title="Appearance">
            <ThemePicker />
          </Section>
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
