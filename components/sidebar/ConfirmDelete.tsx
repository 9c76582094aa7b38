/** "Delete …?" asked once more in the place itself, with Delete and Keep (the sidebar's rows and its selection). */
export function ConfirmDelete({
  question,
  testId,
  disabled,
  truncate = true,
  onDelete,
  onKeep,
}: {
  question: React.ReactNode;
  testId: string;
  disabled?: boolean;
  /** One line, cut to fit (a thread's title); false lets a sentence wrap. */
  truncate?: boolean;
  onDelete: () => void;
  onKeep: () => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <span className={truncate ? 'truncate' : undefined}>{question}</span>
      <button type="button" data-testid={testId} disabled={disabled} className="text-red-700 dark:text-red-400" onClick={onDelete}>
        Delete
      </button>
      <button type="button" onClick={onKeep}>
        Keep
      </button>
    </div>
  );
}
