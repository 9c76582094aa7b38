'use client';

import { Menu, PanelLeftOpen, SquarePen } from 'lucide-react';
import { useRef } from 'react';
import type { ModelView } from '@/lib/contract/responses';
import { HEADER_MENU, useMenuDismiss } from './hooks/useMenuDismiss';
import { InstructionsEditor } from './InstructionsEditor';
import { ModelPicker } from './ModelPicker';
import { ThreadKnowledge } from './ThreadKnowledge';
import { ThreadTools } from './ThreadTools';
import { ThreadSampling } from './ThreadSampling';
import type { Sampling } from '@/lib/contract/sampling';

type Props = {
  threadId: string | null;
  title: string | undefined;
  /** The thread's own instructions, once it is loaded. */
  systemPrompt: string | undefined;
  /** The default model (the server's, or Settings'). */
  modelId: string | undefined;
  /** What the servers offer, and the thread's choice (null: the default). */
  models: ModelView[] | null;
  model: string | null;
  onModel: (model: string | null) => void;
  onModelsOpen: () => void;
  /** The thread's thinking; null follows Settings. */
  thinking: ThinkingChoice | null;
  onThinking: (thinking: ThinkingChoice | null) => void;
  onOpenSidebar: () => void;
  /** On a wide screen with the thread list folded away: how to bring it back. */
  onShowSidebar?: () => void;
  /** A new chat, from the header on a phone (the sidebar's own button is in the drawer there). */
  onNewChat: () => void;
  onSaveInstructions: (systemPrompt: string) => Promise<boolean>;
  /** The thread's sampling (null: the servers' defaults) and how to change it. */
  sampling?: Sampling | null;
  onSampling: (sampling: Sampling | null) => Promise<boolean>;
};

type ThinkingChoice = 'default' | 'on' | 'off';

/** The thread's title, the model answering, its thinking, its instructions and its export. */
export function ThreadHeader({
  threadId,
  title,
  systemPrompt,
  modelId,
  models,
  model,
  onModel,
  onModelsOpen,
  thinking,
  onThinking,
  onOpenSidebar,
  onShowSidebar,
  onNewChat,
  onSaveInstructions,
  sampling,
  onSampling,
}: Props) {
  const header = useRef<HTMLElement>(null);
  useMenuDismiss(header);
  return (
    <header
      ref={header}
      className="relative flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-stone-200 px-4 py-2 text-sm sm:gap-x-3 md:flex-nowrap dark:border-stone-800"
    >
      <button
        type="button"
        data-testid="open-sidebar"
        aria-label="Show conversations"
        className="shrink-0 md:hidden"
        onClick={onOpenSidebar}
      >
        <Menu className="h-5 w-5" />
      </button>
      {onShowSidebar && (
        <button
          type="button"
          data-testid="show-sidebar"
          aria-label="Show the thread list"
          title="Show the thread list"
          className="hidden shrink-0 rounded-md p-1 hover:bg-stone-100 md:inline-flex dark:hover:bg-stone-800"
          onClick={onShowSidebar}
        >
          <PanelLeftOpen className="h-5 w-5" />
        </button>
      )}
      <h1 className="min-w-0 truncate font-medium max-md:flex-1" data-testid="thread-title">
        {title || (threadId ? 'New chat' : 'Start a conversation')}
      </h1>
      {threadId && (
        <button
          type="button"
          data-testid="header-new-chat"
          aria-label="New chat"
          title="New chat"
          onClick={onNewChat}
          className="shrink-0 rounded-md border border-stone-300 p-1 md:hidden dark:border-stone-700"
        >
          <SquarePen className="h-4 w-4" />
        </button>
      )}
      {/* On a phone the thread's controls are a second row under its title (one row had no room
          for the title at all); from md up the wrapper is not a box and they share the one row.
          On a phone their menus open across the header (it is their positioned box), not under
          their own word, so none runs off the screen. */}
      <div className="flex w-full items-center gap-2 sm:gap-3 md:contents">
        <ModelPicker models={models} value={model} defaultId={modelId} onChange={onModel} onOpen={onModelsOpen} />
        {threadId && systemPrompt !== undefined && (
          // On a phone the header keeps the model; thinking is chosen on a wider screen (or in Settings).
          <label className="hidden items-center gap-1 text-xs text-stone-600 sm:flex dark:text-stone-400">
            <span>Thinking</span>
            <select
              data-testid="thread-thinking"
              aria-label="Thinking in this thread"
              title="Whether a thinking model thinks before it answers in this thread"
              className="rounded border border-stone-300 bg-transparent px-1 py-0.5 dark:border-stone-700"
              value={thinking ?? 'settings'}
              onChange={(e) => onThinking(e.target.value === 'settings' ? null : (e.target.value as ThinkingChoice))}
            >
              <option value="settings">as in Settings</option>
              <option value="default">the model&apos;s default</option>
              <option value="on">on</option>
              <option value="off">off</option>
            </select>
          </label>
        )}
        {/* Each keyed by its thread, so another thread starts it afresh; the keys differ by kind as
          well, since siblings sharing a key are not all removed when it changes (a second Tools menu). */}
        {threadId && <ThreadKnowledge key={`knowledge-${threadId}`} threadId={threadId} />}
        {threadId && <ThreadTools key={`tools-${threadId}`} threadId={threadId} />}
        {threadId && systemPrompt !== undefined && (
          <ThreadSampling key={`sampling-${threadId}`} sampling={sampling ?? null} onSave={onSampling} />
        )}
        {threadId && systemPrompt !== undefined && (
          <InstructionsEditor key={`instructions-${threadId}`} value={systemPrompt} onSave={onSaveInstructions} />
        )}
        {threadId && <ExportMenu threadId={threadId} />}
      </div>
    </header>
  );
}

/** The thread's exports: Markdown to read or paste, one web page that reads offline, JSON to import again. */
function ExportMenu({ threadId }: { threadId: string }) {
  const base = `/api/threads/${encodeURIComponent(threadId)}/export?format=`;
  const item = 'block whitespace-nowrap px-3 py-1 hover:bg-stone-100 dark:hover:bg-stone-800';
  return (
    <details name={HEADER_MENU} className="text-xs text-stone-600 md:relative dark:text-stone-400" data-testid="export-menu">
      <summary className="cursor-pointer select-none underline">Export</summary>
      <div className="absolute right-0 z-20 mt-1 rounded-md border max-md:right-2 border-stone-200 bg-white py-1 shadow-lg dark:border-stone-700 dark:bg-stone-900">
        <a className={item} href={`${base}md`} download data-testid="export-md">
          Markdown (.md)
        </a>
        <a className={item} href={`${base}html`} download data-testid="export-html">
          Web page (.html, reads offline)
        </a>
        <a className={item} href={`${base}json`} download data-testid="export-json">
          JSON (imports back into Hearth)
        </a>
      </div>
    </details>
  );
}
