'use client';

import { useState } from 'react';
import { api } from '@/lib/client/api';
import type { SettingProposal, SettingsView } from '@/lib/contract/responses';
import { SETTING_LABELS, TOOL_CATALOG } from '@/lib/contract/settings';

/** A proposed value as the owner should read it before applying it: every address and word of it. */
function proposedValue(p: SettingProposal): string {
  switch (p.key) {
    case 'modelServers':
      return p.value.map((s) => (s.model ? `${s.url} (model ${s.model})` : s.url)).join(', ');
    case 'conversationsByMeaning':
      return p.value ? 'on: every message is sent to the embeddings server' : 'off';
    case 'disabledTools':
    case 'memberDisabledTools': {
      const off = TOOL_CATALOG.filter((t) => p.value.includes(t.name)).map((t) => t.name);
      return off.length ? `switched off: ${off.join(', ')}` : 'every tool on';
    }
    case 'memberToolServers':
      return p.value ? "on: members' turns use the tool servers" : 'off';
    case 'memberModels':
      return p.value.length ? p.value.join(', ') : 'any model';
    default:
      return p.value === '' ? '(empty)' : p.value;
  }
}

/**
 * Settings an imported library file carried that decide where Hearth sends conversations or
 * what it runs. None is in force until the owner applies it here, one at a time: a file from
 * someone else cannot move the model servers, and the owner's own backup is restored the same way.
 */
export function ImportedProposals({ view, onView }: { view: SettingsView; onView: (view: SettingsView) => void }) {
  const [error, setError] = useState<string | null>(null);
  if (view.proposals.length === 0) return null;
  const decide = async (action: Parameters<typeof api.decideProposals>[0]) => {
    setError(null);
    try {
      onView(await api.decideProposals(action));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    // A region, not one of the page's sections: it is there only while something waits.
    <div
      role="region"
      aria-labelledby="imported-proposals-title"
      data-testid="imported-proposals"
      className="space-y-3 rounded-lg border border-amber-400 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950/40"
    >
      <h2 id="imported-proposals-title" className="font-semibold">
        From an imported library file
      </h2>
      <p className="text-sm">
        A library file you imported carried these settings. They decide where Hearth sends your conversations or what it runs, so none of
        them is in force until you apply it. Apply only what you recognise, such as your own backup.
      </p>
      <ul className="space-y-2">
        {view.proposals.map((p) => (
          <li key={p.key} data-testid="proposal" data-key={p.key} className="space-y-1 text-sm">
            <div className="font-medium">{SETTING_LABELS[p.key]}</div>
            <div className="max-h-40 overflow-y-auto whitespace-pre-wrap break-words rounded bg-white/70 p-2 font-mono text-xs dark:bg-black/30">
              {proposedValue(p)}
            </div>
            <div className="flex gap-2">
              <button
                type="button"
                className="rounded border border-stone-400 px-2 py-0.5 text-xs"
                onClick={() => void decide({ apply: [p.key] })}
              >
                Apply {SETTING_LABELS[p.key]}
              </button>
              <button
                type="button"
                className="rounded border border-stone-400 px-2 py-0.5 text-xs"
                onClick={() => void decide({ dismiss: [p.key] })}
              >
                Dismiss
              </button>
            </div>
          </li>
        ))}
      </ul>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
