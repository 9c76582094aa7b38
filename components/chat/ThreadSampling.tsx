'use client';

import { useState } from 'react';
import { SAMPLING_KEYS, SAMPLING_RANGES, type Sampling, type SamplingKey } from '@/lib/contract/sampling';
import { HEADER_MENU } from './hooks/useMenuDismiss';

/**
 * The thread's sampling: temperature, top P, top K and min P for its replies (checks, plans and
 * titles keep their own). An empty box is the model server's default. Like Settings, a box is
 * saved when focus leaves it or on Enter; "Server's defaults" empties them all.
 */
export function ThreadSampling({ sampling, onSave }: { sampling: Sampling | null; onSave: (s: Sampling | null) => Promise<boolean> }) {
  const shown = (s: Sampling | null) => Object.fromEntries(SAMPLING_KEYS.map((k) => [k, s?.[k] === undefined ? '' : String(s[k])]));
  const [boxes, setBoxes] = useState<Record<string, string>>(() => shown(sampling));
  const [saved, setSaved] = useState(sampling);
  // The thread's value changed elsewhere (another tab, an import): the boxes follow it.
  if (JSON.stringify(saved) !== JSON.stringify(sampling)) {
    setSaved(sampling);
    setBoxes(shown(sampling));
  }
  const custom = SAMPLING_KEYS.filter((k) => sampling?.[k] !== undefined);

  const save = async () => {
    const next: Record<string, number> = {};
    for (const k of SAMPLING_KEYS) if (boxes[k].trim() !== '') next[k] = Number(boxes[k]);
    if (JSON.stringify(next) === JSON.stringify(sampling ?? {})) return;
    // Refused (the notice names the field and its range): the boxes go back to what is in force.
    if (!(await onSave(Object.keys(next).length ? (next as Sampling) : null))) setBoxes(shown(sampling));
  };

  return (
    <details name={HEADER_MENU} className="hidden text-xs sm:block md:relative" data-testid="thread-sampling">
      <summary
        className="cursor-pointer text-stone-600 underline dark:text-stone-400"
        title="Temperature and the other sampling settings of this thread"
      >
        Sampling{custom.length ? ` · ${custom.map((k) => `${SAMPLING_RANGES[k].label.toLowerCase()} ${sampling![k]}`).join(', ')}` : ''}
      </summary>
      <div
        className="absolute right-0 z-20 mt-1 w-64 rounded-md border border-stone-300 bg-white p-2 shadow max-md:left-2 max-md:right-2 max-md:w-auto dark:border-stone-700 dark:bg-stone-900"
        onBlur={() => void save()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && e.target instanceof HTMLInputElement) void save();
        }}
      >
        <p className="mb-2 text-stone-600 dark:text-stone-400">For this thread&apos;s replies. Empty: the model server&apos;s default.</p>
        <div className="grid grid-cols-2 gap-2">
          {SAMPLING_KEYS.map((k: SamplingKey) => {
            const r = SAMPLING_RANGES[k];
            return (
              <label key={k} className="flex flex-col gap-0.5">
                <span>{r.label}</span>
                <input
                  type="number"
                  inputMode="decimal"
                  data-testid={`sampling-${k}`}
                  min={r.min}
                  max={r.max}
                  step={r.step}
                  placeholder="default"
                  value={boxes[k]}
                  onChange={(e) => setBoxes({ ...boxes, [k]: e.target.value })}
                  className="rounded border border-stone-300 bg-transparent px-1 py-0.5 dark:border-stone-700"
                />
              </label>
            );
          })}
        </div>
        {custom.length > 0 && (
          <button
            type="button"
            data-testid="sampling-defaults"
            className="mt-2 underline"
            onClick={() => {
              setBoxes(shown(null));
              void onSave(null);
            }}
          >
            Server&apos;s defaults
          </button>
        )}
      </div>
    </details>
  );
}
