'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiError, regenerateAnswer, sendMessage } from '@/lib/client/api';
import type { AttachmentInfo, Rating, ThreadView } from '@/lib/contract/responses';
import type { LiveTurnState } from '@/lib/contract/turn-state';
import { useThreadChoices } from './useThreadChoices';
import { useTurnStream } from './useTurnStream';

/** A thread's own address (app/t/[id]; '/' for a new chat): the page's URL and the sidebar's links. */
export function threadPath(id: string | null) {
  return id ? `/t/${encodeURIComponent(id)}` : '/';
}

/** A message's anchor in the page (and in a link: /t/<thread>#m-<message>). */
export const messageAnchor = (id: string) => `m-${id}`;

function anchoredMessage(): string | null {
  return typeof window === 'undefined' ? null : (window.location.hash.match(/^#m-([\w-]+)$/)?.[1] ?? null);
}

/** The branch shown ends before `messageId` while its replacement is written (the old one stays a version). */
function upTo(view: ThreadView | null, messageId: string): ThreadView | null {
  if (!view) return view;
  return {
    ...view,
    messages: view.messages.slice(
      0,
      Math.max(
        0,
        view.messages.findIndex((m) => m.id === messageId),
      ),
    ),
  };
}

/**
 * The thread shown and what can be done to it: open one (from the list, a link, search, the
 * browser's back button), send, edit a question, regenerate, choose a version, delete a
 * message, save its instructions. The URL follows the thread (/t/<id>#m-<message>).
 */
export function useThread({
  initialThreadId,
  onOpened,
  onTurnEnded,
  onListChanged,
  onError,
}: {
  initialThreadId: string | null;
  /** Another thread is shown: what belonged to the last one on the page goes. */
  onOpened: () => void;
  /** A turn ended: the thread list may have a new title or order, a server may be down. */
  onTurnEnded: (final: LiveTurnState | null) => void;
  /** A thread was created. */
  onListChanged: () => void;
  onError: (message: string | null) => void;
}) {
  const [currentId, setCurrentId] = useState<string | null>(initialThreadId);
  const [view, setView] = useState<ThreadView | null>(null);
  /** A message to bring into view once its thread is shown (from search, or a link), then the one highlighted. */
  const [focusMessage, setFocusMessage] = useState<string | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const currentRef = useRef(currentId);
  currentRef.current = currentId;
  const shownRef = useRef<string | undefined>(undefined);
  shownRef.current = view?.id;

  const onEnded = useCallback(
    async (threadId: string, final: LiveTurnState | null) => {
      try {
        const fresh = await api.getThread(threadId);
        if (currentRef.current === threadId) setView(fresh);
      } catch {
        // the thread may have been deleted meanwhile
      }
      onTurnEnded(final);
    },
    [onTurnEnded],
  );
  const turn = useTurnStream({ currentRef, onEnded, onError });
  const { leave, follow } = turn;

  /** Shows this thread's view if it is still the one shown. */
  const showIfCurrent = (threadId: string) => (v: ThreadView) => {
    if (currentRef.current === threadId) setView(v);
  };
  const choices = useThreadChoices({ currentId, view, showIfCurrent, onError });
  const { forgetPending } = choices;

  /** A change to the thread shown whose answer is the thread as now shown; an error is said in the notice. */
  const change = (request: (threadId: string) => Promise<ThreadView>) => {
    const threadId = currentId;
    if (!threadId) return;
    void request(threadId)
      .then(showIfCurrent(threadId))
      .catch((e) => onError((e as Error).message));
  };

  const open = useCallback(
    async (id: string | null, push = true, messageId: string | null = null) => {
      setFocusMessage(messageId);
      setHighlighted(null);
      const path = threadPath(id) + (messageId ? `#${messageAnchor(messageId)}` : '');
      if (id && id === currentRef.current && shownRef.current === id) {
        // Already showing it: just move to the message.
        if (push && window.location.pathname + window.location.hash !== path) window.history.pushState(null, '', path);
        return;
      }
      leave();
      setCurrentId(id);
      currentRef.current = id;
      forgetPending();
      onOpened();
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
        // A turn is still running (the page was reloaded): replay it from the start, then follow.
        if (v.activeTurn) follow(id, v.activeTurn.id);
      } catch (err) {
        setView(null);
        onError(
          err instanceof ApiError && err.code === 'not_found'
            ? 'That conversation does not exist (it may have been deleted).'
            : (err as Error).message,
        );
      }
    },
    [leave, follow, forgetPending, onOpened, onError],
  );

  // The thread of the address at first, and the one the browser's back and forward buttons go to.
  const openLatest = useRef(open);
  openLatest.current = open;
  useEffect(() => {
    void openLatest.current(initialThreadId, false, anchoredMessage());
    const onPop = () => {
      const m = window.location.pathname.match(/^\/t\/([\w-]+)/);
      void openLatest.current(m ? m[1] : null, false, anchoredMessage());
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [initialThreadId]);

  /** Sends a question (a new chat is created first); false when nothing was stored, so the composer keeps it. */
  const send = async (content: string, attachments: AttachmentInfo[], editOf?: string): Promise<boolean> => {
    onError(null);
    let threadId = currentId;
    try {
      if (!threadId) {
        const created = await api.createThread();
        threadId = created.id;
        // The model and collections picked for the new chat are the thread's before its first turn runs.
        await choices.applyPending(threadId);
        setCurrentId(threadId);
        currentRef.current = threadId;
        window.history.pushState(null, '', threadPath(threadId));
        setView({
          ...created,
          updatedAt: created.createdAt,
          pinned: false,
          folderId: null,
          archived: false,
          systemPrompt: '',
          model: choices.model,
          messages: [],
          decisions: [],
          activeTurn: null,
        });
        onListChanged();
      }
    } catch (err) {
      onError((err as Error).message);
      return false;
    }
    const id = threadId;
    turn.setPendingUser(attachments.length ? `${content}\n📄 ${attachments.map((a) => a.name).join(', ')}` : content);
    const ids = attachments.map((a) => a.id);
    const accepted = await turn.start(id, (onEvent, signal) => sendMessage(id, content, ids, onEvent, signal, editOf));
    if (!accepted) turn.setPendingUser(null);
    return accepted;
  };

  const editQuestion = async (messageId: string, content: string) => {
    const before = view;
    setView((v) => upTo(v, messageId));
    const ok = await send(content, [], messageId);
    if (!ok && before) setView(before);
  };

  /** A new answer to the same question; `model`: written by another model (this once; the thread keeps its own). */
  const regenerate = async (messageId: string, model?: string) => {
    const threadId = currentId;
    if (!threadId) return;
    onError(null);
    const before = view;
    setView((v) => upTo(v, messageId));
    const accepted = await turn.start(threadId, (onEvent, signal) => regenerateAnswer(threadId, messageId, onEvent, signal, model));
    if (!accepted && before && currentRef.current === threadId) setView(before);
  };

  const chooseVersion = (messageId: string) => change((threadId) => api.patchThread(threadId, { branch: messageId }));
  const deleteMessage = (messageId: string) => change((threadId) => api.deleteMessage(threadId, messageId));
  const rateAnswer = (messageId: string, rating: Rating | null) => change((threadId) => api.rateAnswer(threadId, messageId, rating));

  /** Renames a thread of the list; the one shown shows its new name. */
  const rename = (id: string, title: string) => api.patchThread(id, { title }).then(showIfCurrent(id));

  /** A title written in the background. */
  const retitle = useCallback((id: string, title: string) => setView((v) => (v && v.id === id ? { ...v, title } : v)), []);

  return {
    currentId,
    currentRef,
    view,
    focusMessage,
    highlighted,
    /** The message asked for is in view: it is marked, and not scrolled to again. */
    focused: (id: string) => {
      setHighlighted(id);
      setFocusMessage(null);
    },
    turn,
    open,
    send,
    editQuestion,
    regenerate,
    chooseVersion,
    deleteMessage,
    rateAnswer,
    saveInstructions: choices.saveInstructions,
    setThinking: choices.setThinking,
    setSampling: choices.setSampling,
    setModel: choices.setModel,
    chooseCollection: choices.chooseCollection,
    pendingCollections: choices.pendingCollections,
    dropPendingCollection: choices.dropPendingCollection,
    model: choices.model,
    rename,
    retitle,
    stop: () => {
      if (currentId) turn.stop(currentId);
    },
  };
}
