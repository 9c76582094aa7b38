'use client';

import { useDialogFocus } from './useDialogFocus';

/** Every keyboard shortcut, in one place: the dialog lists these, ChatApp and the composer handle them. */
export const SHORTCUTS: [keys: string, what: string][] = [
  ['Enter', 'Send the message'],
  ['Shift+Enter', 'New line'],
  ['Esc', 'Stop the reply being written'],
  ['Ctrl+K', 'Search all conversations'],
  ['Ctrl+Shift+O', 'New chat'],
  ['Up', 'Edit your last message (in an empty message box)'],
  ['?', 'This list'],
];

/** The list of shortcuts, opened with "?" when no text box has the focus. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const close = useDialogFocus(onClose);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="shortcuts-title"
      data-testid="shortcuts"
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4"
      onClick={onClose}
    >
      <div className="w-full max-w-sm rounded-xl bg-white p-4 shadow-xl dark:bg-stone-900" onClick={(e) => e.stopPropagation()}>
        <h2 id="shortcuts-title" className="mb-2 font-semibold">
          Keyboard shortcuts
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {SHORTCUTS.map(([keys, what]) => (
            <div key={keys} className="contents">
              <dt>
                <kbd className="rounded border border-stone-300 px-1 font-mono text-xs dark:border-stone-700">{keys}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <button
          ref={close}
          type="button"
          onClick={onClose}
          className="mt-3 rounded-md border border-stone-300 px-3 py-1 text-sm dark:border-stone-700"
        >
          Close
        </button>
      </div>
    </div>
  );
}

/** Whether a key press is meant for a text box (then single-key shortcuts stay out of its way). */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable));
}
