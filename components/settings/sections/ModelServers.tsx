'use client';

import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { ModelCheck } from '@/lib/contract/responses';
import { buttonClass, inputClass, inputId, Section, type SettingsForm } from '../form';
import { ChecksModelWarning, offeredModels } from '../SettingsGuide';

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

/** Settings → Model servers. */
export function ModelServersSection({ form }: { form: SettingsForm }) {
  const { draft, view, set, reset, marked, field } = form;
  const [checks, setChecks] = useState<Record<string, ModelCheck | 'checking'>>({});
  const checkServer = useCallback(async (url: string, model: string) => {
    setChecks((c) => ({ ...c, [url]: 'checking' }));
    try {
      const result = await api.checkModel(url, model);
      setChecks((c) => ({ ...c, [url]: result }));
    } catch (err) {
      setChecks((c) => ({ ...c, [url]: { url, reachable: false, error: (err as Error).message } }));
    }
  }, []);
  // Each saved server is checked when the page opens: it says which ones answer.
  const saved = form.view.settings.modelServers;
  useEffect(() => {
    for (const s of saved) void checkServer(s.url, s.model);
    // Once, for the servers the page opened with; later ones are checked with their Check button.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
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
          <button type="button" data-testid="reset-modelServers" className="text-xs underline" onClick={() => void reset('modelServers')}>
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
            {[...new Set(Object.values(checks).flatMap((c) => (c === 'checking' ? [] : (c.models ?? []).map((m) => m.id))))].map((id) => (
              <option key={id} value={id} />
            ))}
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
  );
}
