'use client';

import { useState } from 'react';

/**
 * The thread's own instructions to the model ("answer in French", "be brief"). The popover
 * closes when focus leaves it (for the message box, say) or on Escape; what was typed and not
 * saved is kept, and the button says so, until it is saved or cancelled.
 */
export function InstructionsEditor({ value, onSave }: { value: string; onSave: (text: string) => Promise<boolean> }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(value);
  const unsaved = text !== value;
  if (!open) {
    return (
      <button
        type="button"
        data-testid="edit-instructions"
        className="text-xs text-stone-600 dark:text-stone-400 underline"
        onClick={() => setOpen(true)}
      >
        {value ? 'Instructions ✓' : 'Instructions'}
        {unsaved ? ' (not saved)' : ''}
      </button>
    );
  }
  return (
    <div
      data-testid="instructions-popover"
      onBlur={(e) => {
        // Focus that moved somewhere else (the message box, say) closes it; a click on nothing focusable does not.
        if (e.relatedTarget && !e.currentTarget.contains(e.relatedTarget as Node)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
      className="absolute right-4 top-full z-10 mt-1 w-96 max-w-[calc(100vw-2rem)] rounded-lg border border-stone-300 bg-white p-3 shadow-lg dark:border-stone-700 dark:bg-stone-900"
    >
      <label className="mb-1 block text-xs font-medium" htmlFor="instructions">
        Instructions for this conversation
      </label>
      <textarea
        id="instructions"
        data-testid="instructions-input"
        autoFocus
        rows={5}
        maxLength={20_000}
        value={text}
        onChange={(e) => setText(e.target.value)}
        className="w-full rounded border border-stone-300 bg-white p-2 text-sm dark:border-stone-700 dark:bg-stone-950"
      />
      <div className="mt-2 flex justify-end gap-2 text-sm">
        <button type="button" onClick={() => (setText(value), setOpen(false))}>
          Cancel
        </button>
        <button
          type="button"
          data-testid="save-instructions"
          className="rounded bg-amber-700 px-3 py-1 text-white"
          onClick={async () => {
            if (await onSave(text)) setOpen(false);
          }}
        >
          Save
        </button>
      </div>
    </div>
  );
}
