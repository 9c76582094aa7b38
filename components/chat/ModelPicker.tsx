'use client';

import type { ModelView } from '@/lib/contract/responses';
import { scoreNote } from '@/lib/client/score-note';

/** What a router or llama-swap says of a model, in the picker's words. */
export function stateNote(state: ModelView['state']): string {
  switch (state) {
    case 'unloaded':
      return ' · loads when used';
    case 'loading':
      return ' · loading';
    case 'failed':
      return ' · failed to load';
    default:
      return '';
  }
}

/**
 * The thread's model, chosen in its header: the default (Settings' model, or the server's own)
 * or any model a server offers, each with its load state and, when an eval report has it, its
 * scorecard. A model no server offers now (a router that dropped it) stays shown as chosen.
 */
export function ModelPicker({
  models,
  value,
  defaultId,
  onChange,
  onOpen,
}: {
  models: ModelView[] | null;
  value: string | null;
  defaultId: string | undefined;
  onChange: (model: string | null) => void;
  /** The list is being looked at: worth asking the servers again. */
  onOpen: () => void;
}) {
  const list = models ?? [];
  const chosen = value ? list.find((m) => m.id === value) : undefined;
  const scored = list.find((m) => m.id === (value ?? defaultId));
  return (
    <label className="ml-auto flex shrink-0 items-center gap-1 text-xs text-stone-600 dark:text-stone-400">
      <span className="hidden sm:inline">Model</span>
      <select
        data-testid="thread-model"
        aria-label="Model for this thread"
        title={scored && scoreNote(scored) ? `Eval scorecard of ${scored.id}${scoreNote(scored)}` : 'The model that answers in this thread'}
        className="w-24 truncate rounded border border-stone-300 bg-transparent px-1 py-0.5 sm:w-auto sm:max-w-[14rem] dark:border-stone-700"
        value={value ?? ''}
        onFocus={onOpen}
        onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
      >
        <option value="">{defaultId ? `Default (${defaultId})` : "Default (each server's own)"}</option>
        {list.map((m) => (
          <option key={m.id} value={m.id}>
            {m.id}
            {stateNote(m.state)}
            {scoreNote(m)}
          </option>
        ))}
        {value && !chosen && <option value={value}>{value} (not offered now)</option>}
      </select>
      {scored && scoreNote(scored) && (
        <span
          data-testid="model-scorecard"
          className="hidden whitespace-nowrap lg:inline"
          title="From the last npm run eval of this model, and the thumbs you gave its answers"
        >
          {scoreNote(scored).replace(/^ — /, '')}
        </span>
      )}
    </label>
  );
}
