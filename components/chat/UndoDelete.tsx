'use client';

/** The few seconds after a thread was deleted from the sidebar: Undo brings it back, Delete now does not wait. */
export function UndoDelete({ title, onUndo, onDeleteNow }: { title: string; onUndo: () => void; onDeleteNow: () => void }) {
  return (
    <div
      role="status"
      data-testid="undo-delete"
      className="fixed bottom-4 left-1/2 z-40 flex -translate-x-1/2 items-center gap-3 rounded-lg bg-stone-900 px-4 py-2 text-sm text-white shadow-lg dark:bg-stone-100 dark:text-stone-900"
    >
      <span>Deleted “{title}”.</span>
      <button type="button" data-testid="undo" className="font-semibold underline" onClick={onUndo}>
        Undo
      </button>
      <button type="button" data-testid="delete-now" className="opacity-80 underline" onClick={onDeleteNow}>
        Delete now
      </button>
    </div>
  );
}
