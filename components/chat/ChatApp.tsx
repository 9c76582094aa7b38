'use client';

import { useCallback, useRef, useState } from 'react';
import type { VoiceFigures } from '@/lib/client/conversation';
import { QuickSearch } from '@/components/search/QuickSearch';
import { Sidebar } from '@/components/sidebar/Sidebar';
import { api, transcribe, uploadAttachment } from '@/lib/client/api';
import type { AttachmentInfo, Health } from '@/lib/contract/responses';
import type { LiveTurnState } from '@/lib/contract/turn-state';
import { Composer, COMPOSER_ID } from './Composer';
import { ConversationBar } from './ConversationBar';
import { useAnnouncement } from './hooks/useAnnouncement';
import { useDeferredDelete } from './hooks/useDeferredDelete';
import { useFileDrop } from './hooks/useFileDrop';
import { useSidebarCollapsed } from './hooks/useSidebarCollapsed';
import { useHealth } from './hooks/useHealth';
import { useModels } from './hooks/useModels';
import { useChangeFeed } from './hooks/useChangeFeed';
import { useMemories } from './hooks/useMemories';
import { useShortcuts } from './hooks/useShortcuts';
import { useThread } from './hooks/useThread';
import { useSpeaker } from './hooks/useSpeaker';
import { useConversation } from './hooks/useConversation';
import { useSpokenTurn } from './hooks/useSpokenTurn';
import { useThreadList } from './hooks/useThreadList';
import { FileViewer } from './FileViewer';
import { ImageViewer, isImage } from './Images';
import { MessageList } from './MessageList';
import { ModelBanner } from './ModelBanner';
import { ShortcutsDialog } from './Shortcuts';
import { SearchButton, SidebarFooter } from './SidebarParts';
import { ThreadHeader } from './ThreadHeader';
import { UndoDelete } from './UndoDelete';

/**
 * The chat page: the sidebar (threads, memory, library), the thread shown with its running
 * turn, the composer, and the dialogs (search, shortcuts, an image full size). What each part
 * keeps and does is in its hook (./hooks); this puts them together.
 */
/**
 * The model a thread without its own asks for: the server's (Settings' model name, or the first
 * it lists). Servers that run different models each answer with their own: no one name.
 */
function defaultModel(health: Health | null): string | undefined {
  const ids = new Set((health?.servers ?? []).filter((s) => s.reachable).map((s) => s.id));
  return ids.size > 1 ? undefined : health?.model.id;
}

/** `assistantName`: the assistant's name from Settings (what the page calls it: the message box, what a screen reader hears). */
export function ChatApp({
  initialThreadId,
  assistantName = 'Hearth',
  location = '',
}: {
  initialThreadId: string | null;
  assistantName?: string;
  location?: string;
}) {
  /** The page's one line of trouble (a failed upload, a refused send); cleared by the next action. */
  const [notice, setNotice] = useState<string | null>(null);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [sidebarCollapsed, setSidebarCollapsed] = useSidebarCollapsed();
  const [searchOpen, setSearchOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  /** An image shown full size. */
  const [viewing, setViewing] = useState<AttachmentInfo | null>(null);
  /** The question being edited in place. */
  const [editing, setEditing] = useState<string | null>(null);
  /** The composer's own functions: take dropped files, put a text in the box. */
  const attachRef = useRef<((files: File[]) => void) | null>(null);
  const fillRef = useRef<((text: string) => void) | null>(null);

  const threads = useThreadList(setNotice);
  const memories = useMemories();
  const { health, check: checkHealth } = useHealth();
  const models = useModels();
  const refreshModels = models.refresh;
  // Only when the server says so: an unreachable one may yet see images.
  const visionOff = Boolean(health?.model.reachable && health.model.vision === false);
  const onOpened = useCallback(() => {
    setSidebarOpen(false);
    setNotice(null);
    setEditing(null);
  }, []);
  const refreshThreads = threads.refresh;
  const speaker = useSpeaker(setNotice);
  /** The spoken answer's end (useSpokenTurn's), once the turn's stream has ended. */
  const spokenEnded = useRef<(final: LiveTurnState | null) => void>(() => undefined);
  const onTurnEnded = useCallback(
    (final: LiveTurnState | null) => {
      if (final?.error?.code === 'model_unreachable') void checkHealth();
      spokenEnded.current(final);
      void refreshThreads();
      // A router may have loaded (or dropped) a model for it: the picker's states follow.
      void refreshModels();
    },
    [checkHealth, refreshThreads, refreshModels],
  );
  const thread = useThread({ initialThreadId, onOpened, onTurnEnded, onListChanged: refreshThreads, onError: setNotice });
  const { live, pendingUser, running } = thread.turn;
  const runningRef = useRef(running);
  runningRef.current = running;
  /** The figures under answers spoken in conversation mode (kept while the page is open). */
  const [spokenFigures, setSpokenFigures] = useState<Record<string, VoiceFigures>>({});
  const conversation = useConversation({
    transcribe: (audio) => transcribe(audio, { keep: speaker.keepRecordings }),
    send: ({ text, attachment }) => thread.send(text, attachment ? [attachment] : []),
    interrupt: () => {
      spoken.drop();
      speaker.stop();
      if (runningRef.current) thread.stop();
    },
    onError: setNotice,
  });
  const talking = conversation.phase !== 'off';
  const noteFigures = (id: string) => {
    const figures = conversation.figures();
    if (figures) setSpokenFigures((all) => ({ ...all, [id]: figures }));
  };
  const spoken = useSpokenTurn({
    live,
    enabled: speaker.autoSpeak || talking,
    follow: speaker.follow,
    onFirstToken: conversation.firstToken,
    onFirstSound: (id) => {
      conversation.sounding();
      if (talking) noteFigures(id);
    },
    onOver: (id) => {
      if (talking && id) noteFigures(id);
      conversation.answered();
    },
  });
  spokenEnded.current = spoken.ended;
  const removal = useDeferredDelete({ onDeleted: refreshThreads, onError: setNotice });
  const drop = useFileDrop((files) => attachRef.current?.(files));
  const announcement = useAnnouncement(live, assistantName);

  useChangeFeed({
    memories: () => void memories.refresh(),
    library: () => {
      void memories.refresh();
      void threads.refresh();
    },
    title: (id, title) => {
      threads.retitle(id, title);
      thread.retitle(id, title);
    },
  });
  useShortcuts({
    search: () => setSearchOpen(true),
    newChat: () => void thread.open(null),
    showShortcuts: () => setShortcutsOpen(true),
  });

  const upload = async (file: File): Promise<AttachmentInfo | null> => {
    try {
      setNotice(null);
      return await uploadAttachment(file);
    } catch (err) {
      setNotice(`${file.name}: ${(err as Error).message}`);
      return null;
    }
  };

  /** A change to the thread list from the sidebar: the list is read again, and a refusal is said. */
  const listChange = (change: Promise<unknown>) => void change.then(() => threads.refresh()).catch((e) => setNotice((e as Error).message));

  const messages = thread.view?.messages ?? [];
  const lastQuestion = [...messages].reverse().find((m) => m.role === 'user');
  const { deleting } = removal;

  return (
    <div className="flex h-dvh">
      {/* The first Tab: straight to the message box, past the thread list (the sidebar comes first in the page). */}
      <a
        href={`#${COMPOSER_ID}`}
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow-lg dark:focus:bg-stone-900"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById(COMPOSER_ID)?.focus();
        }}
      >
        Skip to the message box
      </a>
      <Sidebar
        open={sidebarOpen}
        onClose={() => setSidebarOpen(false)}
        collapsed={sidebarCollapsed}
        onCollapse={() => setSidebarCollapsed(true)}
        header={<SearchButton onOpen={() => setSearchOpen(true)} />}
        footer={<SidebarFooter memories={memories} onImported={() => Promise.all([threads.refresh(), memories.refresh()])} />}
        threads={deleting ? threads.threads.filter((t) => t.id !== deleting.id) : threads.threads}
        currentId={thread.currentId}
        onSelect={(id) => void thread.open(id)}
        onNew={() => void thread.open(null)}
        onMore={threads.hasMore ? () => void threads.loadMore() : undefined}
        folders={threads.folders}
        view={threads.view}
        onView={threads.show}
        onNewFolder={(name) => listChange(api.createFolder(name))}
        onRenameFolder={(id, name) => listChange(api.renameFolder(id, name))}
        onDeleteFolder={(id) => {
          if (threads.view.kind === 'folder' && threads.view.id === id) threads.show({ kind: 'all' });
          listChange(api.deleteFolder(id));
        }}
        onMove={(id, folderId) => listChange(api.patchThread(id, { folderId }))}
        onArchive={(id, archived) => listChange(api.patchThread(id, { archived }))}
        onRename={(id, title) => listChange(thread.rename(id, title))}
        onPin={(id, pinned) => listChange(api.patchThread(id, { pinned }))}
        onDelete={(id) => {
          removal.remove(id, threads.threads.find((t) => t.id === id)?.title || 'New chat');
          if (thread.currentRef.current === id) void thread.open(null);
        }}
        onBulk={async (ids, action) => {
          if (action.kind === 'delete' && thread.currentRef.current && ids.includes(thread.currentRef.current)) void thread.open(null);
          await api
            .bulkThreads(ids, action)
            .then(() => threads.refresh())
            .catch((e) => setNotice((e as Error).message));
        }}
      />
      <main className="relative flex min-w-0 flex-1 flex-col" data-testid="thread-pane" {...drop.handlers}>
        {drop.dragging && (
          <div
            data-testid="drop-overlay"
            className="pointer-events-none absolute inset-2 z-20 flex items-center justify-center rounded-xl border-2 border-dashed border-amber-500 bg-amber-50/80 text-lg text-amber-900 dark:bg-stone-900/80 dark:text-amber-200"
          >
            Drop files or images to attach them
          </div>
        )}
        <ModelBanner health={health} />
        <ThreadHeader
          threadId={thread.currentId}
          title={thread.view?.title}
          systemPrompt={thread.view?.systemPrompt}
          thinking={thread.view?.thinking ?? null}
          onThinking={thread.setThinking}
          modelId={defaultModel(health)}
          models={models.models}
          model={thread.model}
          onModel={(m) => void thread.setModel(m)}
          onModelsOpen={() => void models.refresh()}
          onOpenSidebar={() => setSidebarOpen(true)}
          onShowSidebar={sidebarCollapsed ? () => setSidebarCollapsed(false) : undefined}
          onNewChat={() => void thread.open(null)}
          onSaveInstructions={thread.saveInstructions}
          sampling={thread.view?.sampling ?? null}
          onSampling={thread.setSampling}
        />
        <MessageList
          messages={messages}
          live={live}
          pendingUser={pendingUser}
          editing={editing}
          focusMessage={thread.focusMessage}
          highlighted={thread.highlighted}
          onFocused={thread.focused}
          visionOff={visionOff}
          firstRun={threads.view.kind === 'all' && threads.threads.length === 0}
          location={location}
          actions={{
            chooseVersion: thread.chooseVersion,
            regenerate: (id, model) => void thread.regenerate(id, model),
            models: (models.models ?? []).map((m) => m.id),
            deleteMessage: thread.deleteMessage,
            rateAnswer: thread.rateAnswer,
            reading: speaker.speaking,
            spoken: spokenFigures,
            readAloud: (id, content) => (speaker.speaking === id ? speaker.stop() : speaker.read(id, content)),
            editQuestion: (id, text) => {
              setEditing(null);
              void thread.editQuestion(id, text);
            },
            setEditing,
            openAttachment: setViewing,
            pickExample: (text) => fillRef.current?.(text),
            answerApproval: async (callId, allow, always) => {
              if (!thread.currentId) return;
              try {
                await api.answerApproval(thread.currentId, callId, allow, always);
              } catch (err) {
                setNotice((err as Error).message);
              }
            },
          }}
        />
        <div aria-live="polite" role="status" className="sr-only" data-testid="live-announcer">
          {announcement}
        </div>
        {notice && (
          <div
            role="status"
            data-testid="notice"
            className="border-t border-red-200 bg-red-50 px-4 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
          >
            {notice}
          </div>
        )}
        <ConversationBar phase={conversation.phase} level={conversation.level} onEnd={conversation.end} />
        <Composer
          assistantName={assistantName}
          busy={running}
          onSend={(content, attachments) => thread.send(content, attachments)}
          onEditLast={lastQuestion && !running ? () => setEditing(lastQuestion.id) : undefined}
          onStop={thread.stop}
          onUpload={upload}
          attachRef={attachRef}
          fillRef={fillRef}
          onOpenImage={setViewing}
          draftKey={thread.currentId ?? 'new'}
          visionOff={visionOff}
          onCollection={(c) => void thread.chooseCollection(c)}
          pendingCollections={thread.pendingCollections}
          onDropCollection={thread.dropPendingCollection}
          microphone={speaker.listens}
          keepRecordings={speaker.keepRecordings}
          onConversation={speaker.listens && !talking ? () => void conversation.start() : undefined}
        />
      </main>
      {viewing &&
        (isImage(viewing) ? (
          <ImageViewer image={viewing} onClose={() => setViewing(null)} />
        ) : (
          <FileViewer file={viewing} onClose={() => setViewing(null)} />
        ))}
      {deleting && <UndoDelete title={deleting.title} onUndo={removal.undo} onDeleteNow={() => removal.commit(deleting.id)} />}
      {shortcutsOpen && <ShortcutsDialog onClose={() => setShortcutsOpen(false)} />}
      {searchOpen && (
        <QuickSearch
          currentThreadId={thread.currentId}
          search={async (q, filters, signal) => (await api.search(q, filters, signal)).results}
          onClose={() => setSearchOpen(false)}
          onOpen={(hit) => {
            setSearchOpen(false);
            void thread.open(hit.threadId, true, hit.messageId);
          }}
        />
      )}
    </div>
  );
}
