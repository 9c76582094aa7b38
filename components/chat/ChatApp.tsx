'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { LogoutButton } from '@/components/auth/LogoutButton';
import { api, ApiError, followTurn, regenerateAnswer, sendMessage, uploadAttachment } from '@/lib/client/api';
import type { AttachmentInfo, Health, MemoryFact, MessageView, ThreadSummary, ThreadView, StreamedEvent } from '@/lib/contract/responses';
import { applyEvent, newTurnState, type LiveTurnState } from '@/lib/contract/turn-state';
import { MemoryPanel } from '@/components/sidebar/MemoryPanel';
import { LibraryPanel } from '@/components/sidebar/LibraryPanel';
import { QuickSearch } from '@/components/search/QuickSearch';
import { Sidebar } from '@/components/sidebar/Sidebar';
import { InstructionsEditor } from './InstructionsEditor';
import { AssistantMessage } from './AssistantMessage';
import { Composer } from './Composer';
import { EditQuestion, MessageActions } from './MessageActions';
import { ImageThumb, ImageViewer, isImage, NoVisionNote } from './Images';
import { ShortcutsDialog, typingIn } from './Shortcuts';
import { Welcome } from './Welcome';

/** How often the model banner re-checks llama-server while it is down. */
const HEALTH_RETRY_MS = 10_000;
/** How long a deleted thread can be brought back. */
const UNDO_MS = 8000;
/** Threads fetched per page of the sidebar (more come as its end scrolls into view). */
const THREAD_PAGE = 50;
/** Re-attach attempts when the event stream drops before the turn ended. */
const REATTACH_TRIES = 5;

function threadPath(id: string | null) {
  return id ? `/t/${encodeURIComponent(id)}` : '/';
}

/** A message's anchor in the page (and in a link: /t/<thread>#m-<message>). */
const messageAnchor = (id: string) => `m-${id}`;

function anchoredMessage(): string | null {
  return typeof window === 'undefined' ? null : (window.location.hash.match(/^#m-([\w-]+)$/)?.[1] ?? null);
}

/** Model servers that are down, or every one when health could not be read at all. */
function downServers(health: Health): { url: string; error?: string }[] {
  if (health.servers?.length) return health.servers.filter((s) => !s.up || !s.reachable);
  return health.model.reachable ? [] : [{ url: health.model.url, error: health.model.error }];
}

function ModelBanner({ health }: { health: Health | null }) {
  if (!health) return null;
  const down = downServers(health);
  if (down.length === 0) return null;
  const total = health.servers?.length ?? 1;
  if (health.model.reachable) {
    // Some servers are down, others answer: turns go to those. Say which, quietly.
    return (
      <div
        role="status"
        data-testid="model-servers-notice"
        className="border-b border-amber-200 bg-amber-50/60 px-4 py-2 text-xs text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-100"
      >
        {down.length} of {total} model servers cannot be reached ({down.map((s) => s.url).join(', ')}); replies go to the others until{' '}
        {down.length === 1 ? 'it is' : 'they are'} back.
      </div>
    );
  }
  return (
    <div
      role="alert"
      data-testid="model-banner"
      className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <div className="font-medium">
        {total === 1
          ? `The model server at ${down[0].url} cannot be reached.`
          : `None of the ${total} model servers can be reached: ${down.map((s) => s.url).join(', ')}.`}
      </div>
      <div className="mt-1">
        Start llama-server, then this banner goes away by itself:{' '}
        <code className="rounded bg-amber-100 px-1 dark:bg-amber-900">llama-server -m your-model.gguf --jinja -c 16384 --port 8080</code>
      </div>
    </div>
  );
}

export function ChatApp({ initialThreadId }: { initialThreadId: string | null }) {
  const [threads, setThreads] = useState<ThreadSummary[]>([]);
  const [currentId, setCurrentId] = useState<string | null>(initialThreadId);
  const [view, setView] = useState<ThreadView | null>(null);
  const [live, setLive] = useState<LiveTurnState | null>(null);
  const [pendingUser, setPendingUser] = useState<string | null>(null);
  const [health, setHealth] = useState<Health | null>(null);
  /** An image shown full size, and whether files are being dragged over the thread. */
  const [viewing, setViewing] = useState<AttachmentInfo | null>(null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const attachRef = useRef<((files: File[]) => void) | null>(null);
  /** Puts a text in the message box (an example question picked from the empty chat). */
  const fillRef = useRef<((text: string) => void) | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /**
   * A thread deleted from the sidebar goes out of sight at once but is deleted on the server
   * only after UNDO_MS (or "Delete now", or when the page goes away): until then Undo brings it back.
   */
  const [deleting, setDeleting] = useState<{ id: string; title: string } | null>(null);
  const deletingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [memories, setMemories] = useState<MemoryFact[]>([]);
  const [memoryError, setMemoryError] = useState<string | null>(null);
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  /** A message to bring into view once its thread is shown (from search, or a link), then the one highlighted. */
  const [focusMessage, setFocusMessage] = useState<string | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  /** The question being edited in place. */
  const [editing, setEditing] = useState<string | null>(null);
  const followAbort = useRef<AbortController | null>(null);
  /** Stop pressed before the turn had an id (it is cancelled as soon as it has one). */
  const stopAsked = useRef(false);
  const bottom = useRef<HTMLDivElement | null>(null);
  const currentRef = useRef(currentId);
  currentRef.current = currentId;
  const shownRef = useRef<string | undefined>(undefined);
  shownRef.current = view?.id;

  /** Where the next page of the thread list starts (null: all shown), and how many are shown. */
  const [moreCursor, setMoreCursor] = useState<string | null>(null);
  const shownCount = useRef(THREAD_PAGE);
  const loadingMore = useRef(false);
  const refreshThreads = useCallback(async () => {
    try {
      // As many as are shown (up to the API's page limit), so a refresh does not shrink a scrolled list.
      const page = await api.listThreads(Math.min(200, Math.max(THREAD_PAGE, shownCount.current)));
      shownCount.current = page.threads.length;
      setThreads(page.threads);
      setMoreCursor(page.nextCursor);
    } catch (err) {
      setNotice((err as Error).message);
    }
  }, []);
  const loadMoreThreads = useCallback(async () => {
    if (!moreCursor || loadingMore.current) return;
    loadingMore.current = true;
    try {
      const page = await api.listThreads(THREAD_PAGE, moreCursor);
      setThreads((list) => {
        const seen = new Set(list.map((t) => t.id));
        const next = [...list, ...page.threads.filter((t) => !seen.has(t.id))];
        shownCount.current = next.length;
        return next;
      });
      setMoreCursor(page.nextCursor);
    } catch (err) {
      setNotice((err as Error).message);
    } finally {
      loadingMore.current = false;
    }
  }, [moreCursor]);

  const checkHealth = useCallback(async () => {
    try {
      setHealth(await api.health());
    } catch {
      setHealth({ ok: false, db: false, model: { url: 'llama-server', reachable: false } });
    }
  }, []);

  const refreshMemories = useCallback(async () => {
    try {
      setMemories((await api.listMemories()).memories);
    } catch (err) {
      setMemoryError((err as Error).message);
    }
  }, []);

  useEffect(() => {
    void refreshThreads();
    void checkHealth();
    void refreshMemories();
  }, [refreshThreads, checkHealth, refreshMemories]);

  // Changes made outside this page's own turn: a fact remembered from a chat (here or in another
  // tab), a title written in the background. EventSource reconnects by itself; on (re)connecting
  // the page loads both afresh, since nothing is replayed.
  useEffect(() => {
    const source = new EventSource('/api/events');
    source.onopen = () => {
      void refreshMemories();
      void refreshThreads();
    };
    source.onmessage = (message) => {
      let update: { type?: string; id?: string; title?: string };
      try {
        update = JSON.parse(message.data);
      } catch {
        return;
      }
      if (update.type === 'memories') void refreshMemories();
      if (update.type === 'library') {
        void refreshMemories();
        void refreshThreads();
      }
      if (update.type === 'thread' && typeof update.id === 'string' && typeof update.title === 'string') {
        const { id, title } = update;
        setThreads((list) => list.map((t) => (t.id === id ? { ...t, title } : t)));
        setView((v) => (v && v.id === id ? { ...v, title } : v));
      }
    };
    return () => source.close();
  }, [refreshMemories, refreshThreads]);

  useEffect(() => {
    if (!health || downServers(health).length === 0) return;
    const timer = setInterval(() => void checkHealth(), HEALTH_RETRY_MS);
    return () => clearInterval(timer);
  }, [health, checkHealth]);

  /** Streams a turn's events into the live state, re-attaching if the stream drops. */
  const runStream = useCallback(
    async (threadId: string, start: (onEvent: (e: StreamedEvent) => void, signal: AbortSignal) => Promise<void>, turnId: string | null) => {
      followAbort.current?.abort();
      const abort = new AbortController();
      followAbort.current = abort;
      let state: LiveTurnState | null = turnId ? newTurnState(turnId) : null;
      const onEvent = (e: StreamedEvent) => {
        if (currentRef.current !== threadId) return;
        if (!state) state = newTurnState(e.type === 'turn' ? e.turnId : 'unknown');
        state = applyEvent(state, e);
        setLive(state);
        // Stop was pressed before the server had named the turn: stop it now.
        if (e.type === 'turn' && stopAsked.current) {
          stopAsked.current = false;
          void api.cancel(threadId, e.turnId).catch(() => undefined);
        }
      };
      try {
        await start(onEvent, abort.signal);
        for (let i = 0; i < REATTACH_TRIES && state && !state.ended && !abort.signal.aborted; i++) {
          const s: LiveTurnState = state;
          await followTurn(threadId, s.turnId, s.lastSeq, onEvent, abort.signal).catch(() => undefined);
        }
      } catch (err) {
        if (abort.signal.aborted) return;
        if (err instanceof ApiError) setNotice(err.message);
        else setNotice('The connection to Hearth was lost. Reload to see where the reply got to.');
        return;
      }
      if (abort.signal.aborted || currentRef.current !== threadId) return;
      const final: LiveTurnState | null = state;
      try {
        const fresh = await api.getThread(threadId);
        if (currentRef.current === threadId) setView(fresh);
      } catch {
        // the thread may have been deleted meanwhile
      }
      setLive(null);
      setPendingUser(null);
      if (final?.error?.code === 'model_unreachable') void checkHealth();
      void refreshThreads();
    },
    [checkHealth, refreshThreads],
  );

  const openThread = useCallback(
    async (id: string | null, push = true, messageId: string | null = null) => {
      setFocusMessage(messageId);
      setHighlighted(null);
      const path = threadPath(id) + (messageId ? `#${messageAnchor(messageId)}` : '');
      if (id && id === currentRef.current && shownRef.current === id) {
        // Already showing it: just move to the message.
        if (push && window.location.pathname + window.location.hash !== path) window.history.pushState(null, '', path);
        return;
      }
      followAbort.current?.abort();
      setSidebarOpen(false);
      setCurrentId(id);
      currentRef.current = id;
      setLive(null);
      setPendingUser(null);
      setNotice(null);
      setEditing(null);
      if (push && typeof window !== 'undefined' && window.location.pathname + window.location.hash !== path) {
        window.history.pushState(null, '', path);
      }
      if (!id) {
        setView(null);
        return;
      }
      try {
        let v = await api.getThread(id);
        if (currentRef.current !== id) return;
        // A message asked for (a search hit) on a branch not shown: show its branch.
        if (messageId && !v.activeTurn && !v.messages.some((m) => m.id === messageId))
          v = await api.patchThread(id, { branch: messageId }).catch(() => v);
        if (currentRef.current !== id) return;
        setView(v);
        if (v.activeTurn) {
          // A turn is still running (the page was reloaded): replay it from the start, then follow.
          const turnId = v.activeTurn.id;
          void runStream(id, (onEvent, signal) => followTurn(id, turnId, 0, onEvent, signal), turnId);
        }
      } catch (err) {
        setView(null);
        setNotice(
          err instanceof ApiError && err.code === 'not_found'
            ? 'That conversation does not exist (it may have been deleted).'
            : (err as Error).message,
        );
      }
    },
    [runStream],
  );
  /** The latest openThread, for the page-wide shortcuts registered once. */
  const openThreadRef = useRef(openThread);
  openThreadRef.current = openThread;

  useEffect(() => {
    void openThread(initialThreadId, false, anchoredMessage());
    const onPop = () => {
      const m = window.location.pathname.match(/^\/t\/([\w-]+)/);
      void openThread(m ? m[1] : null, false, anchoredMessage());
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [view?.messages.length, live?.draft, live?.final, pendingUser]);

  // After the scroll to the end above: a message asked for (from search or a link) is brought into view and marked.
  useEffect(() => {
    if (!focusMessage || !view) return;
    const el = document.getElementById(messageAnchor(focusMessage));
    if (!el) return;
    el.scrollIntoView({ block: 'center' });
    setHighlighted(focusMessage);
    setFocusMessage(null);
  }, [focusMessage, view]);

  // Page-wide shortcuts (listed in Shortcuts.tsx): Ctrl+K (Cmd+K on a Mac) search, Ctrl+Shift+O a
  // new chat, "?" the list, when no text box has the focus.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
      if (mod && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setSearchOpen(true);
      } else if (mod && e.shiftKey && e.key.toLowerCase() === 'o') {
        e.preventDefault();
        void openThreadRef.current(null);
      } else if (e.key === '?' && !mod && !typingIn(e.target)) {
        e.preventDefault();
        setShortcutsOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const commitDelete = (id: string) => {
    if (deletingTimer.current) clearTimeout(deletingTimer.current);
    deletingTimer.current = null;
    setDeleting((d) => (d?.id === id ? null : d));
    void api
      .deleteThread(id)
      .then(() => refreshThreads())
      .catch((e) => setNotice((e as Error).message));
  };
  // Leaving the page does not undo a delete: it is sent on the way out.
  useEffect(() => {
    if (!deleting) return;
    const onHide = () => void fetch(`/api/threads/${encodeURIComponent(deleting.id)}`, { method: 'DELETE', keepalive: true });
    window.addEventListener('pagehide', onHide);
    return () => window.removeEventListener('pagehide', onHide);
  }, [deleting]);

  const upload = async (file: File): Promise<AttachmentInfo | null> => {
    try {
      setNotice(null);
      return await uploadAttachment(file);
    } catch (err) {
      setNotice(`${file.name}: ${(err as Error).message}`);
      return null;
    }
  };

  const send = async (content: string, attachments: AttachmentInfo[], editOf?: string): Promise<boolean> => {
    setNotice(null);
    let threadId = currentId;
    try {
      if (!threadId) {
        const created = await api.createThread();
        threadId = created.id;
        setCurrentId(threadId);
        currentRef.current = threadId;
        window.history.pushState(null, '', threadPath(threadId));
        setView({
          ...created,
          updatedAt: created.createdAt,
          pinned: false,
          systemPrompt: '',
          messages: [],
          decisions: [],
          activeTurn: null,
        });
        void refreshThreads();
      }
    } catch (err) {
      setNotice((err as Error).message);
      return false;
    }
    const id = threadId;
    setPendingUser(attachments.length ? `${content}\n📄 ${attachments.map((a) => a.name).join(', ')}` : content);
    const accepted = await startTurn(id, (onEvent, signal) =>
      sendMessage(
        id,
        content,
        attachments.map((a) => a.id),
        onEvent,
        signal,
        editOf,
      ),
    );
    if (!accepted) setPendingUser(null);
    return accepted;
  };

  /** Starts a turn by `request` and streams it; false when the server refused it (nothing was stored). */
  const startTurn = async (
    threadId: string,
    request: (onEvent: (e: StreamedEvent) => void, signal: AbortSignal) => Promise<void>,
  ): Promise<boolean> => {
    stopAsked.current = false;
    setLive(newTurnState('pending'));
    let accepted = true;
    await runStream(
      threadId,
      async (onEvent, signal) => {
        try {
          await request(onEvent, signal);
        } catch (err) {
          accepted = false;
          throw err;
        }
      },
      null,
    );
    if (!accepted) setLive(null);
    return accepted;
  };

  /** The branch shown ends before `messageId` while its replacement is written (the old one stays a version). */
  const showUpTo = (messageId: string) =>
    setView((v) =>
      v
        ? {
            ...v,
            messages: v.messages.slice(
              0,
              Math.max(
                0,
                v.messages.findIndex((m) => m.id === messageId),
              ),
            ),
          }
        : v,
    );

  const editQuestion = async (messageId: string, content: string) => {
    const before = view;
    setEditing(null);
    showUpTo(messageId);
    const ok = await send(content, [], messageId);
    if (!ok && before) setView(before);
  };

  const regenerate = async (messageId: string) => {
    const threadId = currentId;
    if (!threadId) return;
    setNotice(null);
    const before = view;
    showUpTo(messageId);
    const accepted = await startTurn(threadId, (onEvent, signal) => regenerateAnswer(threadId, messageId, onEvent, signal));
    if (!accepted && before && currentRef.current === threadId) setView(before);
  };

  const chooseVersion = (messageId: string) => {
    const threadId = currentId;
    if (!threadId) return;
    void api
      .patchThread(threadId, { branch: messageId })
      .then((v) => {
        if (currentRef.current === threadId) setView(v);
      })
      .catch((e) => setNotice((e as Error).message));
  };

  const deleteMessage = (messageId: string) => {
    const threadId = currentId;
    if (!threadId) return;
    void api
      .deleteMessage(threadId, messageId)
      .then((v) => {
        if (currentRef.current === threadId) setView(v);
      })
      .catch((e) => setNotice((e as Error).message));
  };

  const stop = () => {
    if (!currentId || !live) return;
    if (live.turnId === 'pending' || live.turnId === 'unknown') stopAsked.current = true;
    else void api.cancel(currentId, live.turnId).catch((e) => setNotice((e as Error).message));
  };

  const messages: MessageView[] = view?.messages ?? [];
  const liveAssistantId = live?.assistantMessageId;
  const liveInView = Boolean(liveAssistantId && messages.some((m) => m.id === liveAssistantId));
  const turnRunning = Boolean(live && !live.ended);
  /**
   * What a screen reader hears, politely (never each streamed word): that a reply is being
   * written, then the finished answer, or how the turn ended.
   */
  const liveSays = !live
    ? null
    : !live.ended
      ? 'Hearth is writing a reply.'
      : live.error
        ? `The reply ended: ${live.error.message}`
        : `Hearth replied: ${(live.final ?? live.draft).slice(0, 600)}`;
  // Kept after the turn's live state is cleared, until the next turn says something.
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    if (liveSays) setAnnouncement(liveSays);
  }, [liveSays]);
  const lastQuestion = [...messages].reverse().find((m) => m.role === 'user');

  const renderLive = (l: LiveTurnState) => (
    <AssistantMessage
      content={l.final ?? l.draft}
      streaming={!l.ended}
      status={l.error ? (l.error.code === 'cancelled' ? 'interrupted' : 'error') : undefined}
      error={l.error}
      stage={l.stage}
      queuePosition={l.queuePosition}
      toolCalls={l.toolCalls}
      decisions={l.decisions}
      setAside={l.setAside}
      calculation={l.calculation}
      stats={l.stats}
    />
  );

  return (
    <div className="flex h-dvh">
      <Sidebar
        open={sidebarOpen}
        onClose={() => setSidebarOpen(false)}
        header={
          <button
            type="button"
            data-testid="open-search"
            onClick={() => setSearchOpen(true)}
            className="mb-2 flex w-full items-center rounded-md border border-stone-300 bg-white px-2 py-1 text-left text-sm text-stone-600 dark:text-stone-400 dark:border-stone-700 dark:bg-stone-900"
          >
            Search conversations
            <kbd className="ml-auto rounded border border-stone-300 px-1 text-[10px] dark:border-stone-700">Ctrl K</kbd>
          </button>
        }
        footer={
          <>
            <MemoryPanel
              facts={memories}
              error={memoryError}
              onAdd={async (text) => {
                try {
                  await api.addMemory(text);
                  setMemoryError(null);
                  await refreshMemories();
                  return true;
                } catch (err) {
                  setMemoryError((err as Error).message);
                  return false;
                }
              }}
              onForget={(id) =>
                void api
                  .forgetMemory(id)
                  .then(refreshMemories)
                  .catch((e) => setMemoryError((e as Error).message))
              }
            />
            <LibraryPanel
              onImport={async (file) => {
                const summary = await api.importLibrary(file);
                await Promise.all([refreshThreads(), refreshMemories()]);
                return summary;
              }}
            />
            <a
              href="/settings"
              data-testid="open-settings"
              className="mt-2 block rounded-md px-2 py-1 text-sm text-stone-700 hover:bg-white dark:text-stone-300 dark:hover:bg-stone-800"
            >
              Settings
            </a>
            <LogoutButton />
          </>
        }
        threads={deleting ? threads.filter((t) => t.id !== deleting.id) : threads}
        currentId={currentId}
        onSelect={(id) => void openThread(id)}
        onNew={() => void openThread(null)}
        onMore={moreCursor ? () => void loadMoreThreads() : undefined}
        onRename={(id, title) =>
          void api
            .patchThread(id, { title })
            .then((v) => {
              if (currentRef.current === id) setView(v);
              return refreshThreads();
            })
            .catch((e) => setNotice((e as Error).message))
        }
        onPin={(id, pinned) =>
          void api
            .patchThread(id, { pinned })
            .then(refreshThreads)
            .catch((e) => setNotice((e as Error).message))
        }
        onDelete={(id) => {
          if (deleting) commitDelete(deleting.id);
          setDeleting({ id, title: threads.find((t) => t.id === id)?.title || 'New chat' });
          if (currentRef.current === id) void openThread(null);
          deletingTimer.current = setTimeout(() => commitDelete(id), UNDO_MS);
        }}
      />
      <main
        className="relative flex min-w-0 flex-1 flex-col"
        data-testid="thread-pane"
        onDragOver={(e) => {
          if (!e.dataTransfer.types.includes('Files')) return;
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={(e) => {
          if (e.currentTarget === e.target || !e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(e) => {
          if (e.dataTransfer.files.length === 0) return;
          e.preventDefault();
          setDragging(false);
          attachRef.current?.(Array.from(e.dataTransfer.files));
        }}
      >
        {dragging && (
          <div
            data-testid="drop-overlay"
            className="pointer-events-none absolute inset-2 z-20 flex items-center justify-center rounded-xl border-2 border-dashed border-amber-500 bg-amber-50/80 text-lg text-amber-900 dark:bg-stone-900/80 dark:text-amber-200"
          >
            Drop files or images to attach them
          </div>
        )}
        <ModelBanner health={health} />
        <header className="relative flex items-center gap-3 border-b border-stone-200 px-4 py-2 text-sm dark:border-stone-800">
          <button
            type="button"
            data-testid="open-sidebar"
            aria-label="Show conversations"
            className="md:hidden"
            onClick={() => setSidebarOpen(true)}
          >
            ☰
          </button>
          <h1 className="truncate font-medium" data-testid="thread-title">
            {view?.title || (currentId ? 'New chat' : 'Start a conversation')}
          </h1>
          <span className="ml-auto hidden text-xs text-stone-600 dark:text-stone-400 sm:inline">
            {health?.model.id ? `model: ${health.model.id}` : ''}
          </span>
          {currentId && view && (
            <InstructionsEditor
              key={currentId}
              value={view.systemPrompt}
              onSave={async (systemPrompt) => {
                try {
                  const v = await api.patchThread(currentId, { systemPrompt });
                  if (currentRef.current === currentId) setView(v);
                  return true;
                } catch (err) {
                  setNotice((err as Error).message);
                  return false;
                }
              }}
            />
          )}
          {currentId && (
            <a
              className="text-xs text-stone-600 dark:text-stone-400 underline"
              href={`/api/threads/${encodeURIComponent(currentId)}/export?format=md`}
            >
              Export
            </a>
          )}
        </header>
        <div className="flex-1 overflow-y-auto px-4 py-4" data-testid="messages">
          <div className="mx-auto max-w-3xl space-y-5">
            {messages.map((m) => (
              <div
                key={m.id}
                id={messageAnchor(m.id)}
                data-message-id={m.id}
                data-highlighted={highlighted === m.id ? 'true' : undefined}
                className={`scroll-mt-4 rounded-2xl ${highlighted === m.id ? 'ring-2 ring-amber-400 ring-offset-4 ring-offset-white dark:ring-offset-stone-950' : ''}`}
              >
                {m.role === 'user' && editing === m.id ? (
                  <EditQuestion initial={m.content} onCancel={() => setEditing(null)} onSend={(text) => void editQuestion(m.id, text)} />
                ) : m.role === 'user' ? (
                  <div className="ml-auto w-fit max-w-[85%]">
                    <div data-testid="user-message" className="whitespace-pre-wrap rounded-2xl bg-amber-100 px-4 py-2 dark:bg-amber-900/40">
                      {m.content}
                    </div>
                    {m.attachments.length > 0 && (
                      <div className="mt-1 flex flex-wrap justify-end gap-1">
                        {m.attachments.map((a) =>
                          isImage(a) ? (
                            <ImageThumb key={a.id} image={a} onOpen={setViewing} testId="message-image" />
                          ) : (
                            <span
                              key={a.id}
                              data-testid="message-attachment"
                              className="rounded-full border border-stone-300 px-2 py-0.5 text-xs dark:border-stone-700"
                            >
                              📄 {a.name}
                            </span>
                          ),
                        )}
                      </div>
                    )}
                    {health?.model.reachable && health.model.vision === false && m.attachments.some(isImage) && <NoVisionNote />}
                    <MessageActions
                      role="user"
                      branch={m.branch}
                      busy={turnRunning}
                      onChoose={chooseVersion}
                      onEdit={() => setEditing(m.id)}
                      onDelete={() => deleteMessage(m.id)}
                    />
                  </div>
                ) : live && m.id === liveAssistantId ? (
                  renderLive(live)
                ) : (
                  <>
                    <AssistantMessage
                      content={m.content}
                      streaming={false}
                      status={m.status}
                      errorCode={m.errorCode}
                      toolCalls={m.toolCalls}
                      decisions={m.decisions}
                      setAside={m.setAside}
                      calculation={m.calculation ?? undefined}
                      stats={m.stats ?? undefined}
                    />
                    <MessageActions
                      role="assistant"
                      branch={m.branch}
                      busy={turnRunning}
                      retry={m.status === 'interrupted' || m.status === 'error'}
                      onChoose={chooseVersion}
                      onRegenerate={() => void regenerate(m.id)}
                      onDelete={() => deleteMessage(m.id)}
                    />
                  </>
                )}
              </div>
            ))}
            {pendingUser !== null && !liveInView && (
              <div
                data-testid="user-message"
                className="ml-auto w-fit max-w-[85%] whitespace-pre-wrap rounded-2xl bg-amber-100 px-4 py-2 dark:bg-amber-900/40"
              >
                {pendingUser}
              </div>
            )}
            {live && !liveInView && renderLive(live)}
            {messages.length === 0 && !live && pendingUser === null && (
              <Welcome firstRun={threads.length === 0} onPick={(text) => fillRef.current?.(text)} />
            )}
            <div ref={bottom} />
          </div>
        </div>
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
        <Composer
          busy={turnRunning}
          onSend={(content, attachments) => send(content, attachments)}
          onEditLast={lastQuestion && !turnRunning ? () => setEditing(lastQuestion.id) : undefined}
          onStop={stop}
          onUpload={upload}
          attachRef={attachRef}
          fillRef={fillRef}
          onOpenImage={setViewing}
          draftKey={currentId ?? 'new'}
        />
      </main>
      {viewing && <ImageViewer image={viewing} onClose={() => setViewing(null)} />}
      {deleting && (
        <div
          role="status"
          data-testid="undo-delete"
          className="fixed bottom-4 left-1/2 z-40 flex -translate-x-1/2 items-center gap-3 rounded-lg bg-stone-900 px-4 py-2 text-sm text-white shadow-lg dark:bg-stone-100 dark:text-stone-900"
        >
          <span>Deleted “{deleting.title}”.</span>
          <button
            type="button"
            data-testid="undo"
            className="font-semibold underline"
            onClick={() => {
              if (deletingTimer.current) clearTimeout(deletingTimer.current);
              setDeleting(null);
            }}
          >
            Undo
          </button>
          <button type="button" data-testid="delete-now" className="opacity-80 underline" onClick={() => commitDelete(deleting.id)}>
            Delete now
          </button>
        </div>
      )}
      {shortcutsOpen && <ShortcutsDialog onClose={() => setShortcutsOpen(false)} />}
      {searchOpen && (
        <QuickSearch
          currentThreadId={currentId}
          search={async (q, filters, signal) => (await api.search(q, filters, signal)).results}
          onClose={() => setSearchOpen(false)}
          onOpen={(hit) => {
            setSearchOpen(false);
            void openThread(hit.threadId, true, hit.messageId);
          }}
        />
      )}
    </div>
  );
}
