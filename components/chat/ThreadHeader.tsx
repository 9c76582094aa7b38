'use client';

import { InstructionsEditor } from './InstructionsEditor';

type Props = {
  threadId: string | null;
  title: string | undefined;
  /** The thread's own instructions, once it is loaded. */
  systemPrompt: string | undefined;
  modelId: string | undefined;
  onOpenSidebar: () => void;
  onSaveInstructions: (systemPrompt: string) => Promise<boolean>;
};

/** The thread's title, the model answering, its instructions and its export. */
export function ThreadHeader({ threadId, title, systemPrompt, modelId, onOpenSidebar, onSaveInstructions }: Props) {
  return (
    <header className="relative flex items-center gap-3 border-b border-stone-200 px-4 py-2 text-sm dark:border-stone-800">
      <button type="button" data-testid="open-sidebar" aria-label="Show conversations" className="md:hidden" onClick={onOpenSidebar}>
        ☰
      </button>
      <h1 className="truncate font-medium" data-testid="thread-title">
        {title || (threadId ? 'New chat' : 'Start a conversation')}
      </h1>
      <span className="ml-auto hidden text-xs text-stone-600 dark:text-stone-400 sm:inline">{modelId ? `model: ${modelId}` : ''}</span>
      {threadId && systemPrompt !== undefined && <InstructionsEditor key={threadId} value={systemPrompt} onSave={onSaveInstructions} />}
      {threadId && (
        <a
          className="text-xs text-stone-600 dark:text-stone-400 underline"
          href={`/api/threads/${encodeURIComponent(threadId)}/export?format=md`}
        >
          Export
        </a>
      )}
    </header>
  );
}
