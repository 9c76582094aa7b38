'use client';

import { useState } from 'react';
import { api } from '@/lib/client/api';
import type { Settings } from '@/lib/contract/settings';
import { toolLabel } from '@/lib/shared/words/tools';
import { buttonClass, inputClass, LiveCheck, Section, type SettingsForm } from '../form';
import { WebSearchWarning } from '../SettingsGuide';

/** Settings → Tools. */
export function ToolsSection({ form }: { form: SettingsForm }) {
  const { draft, view, set, field } = form;
  const [searchCheck, setSearchCheck] = useState<{ ok: boolean; text: string } | 'checking' | null>(null);
  return (
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
  );
}
