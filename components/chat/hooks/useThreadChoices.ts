'use client';

import { useCallback, useState } from 'react';
import { api } from '@/lib/client/api';
import type { ThreadView } from '@/lib/contract/responses';
import type { Sampling } from '@/lib/contract/sampling';

type Collection = { id: string; name: string };

/**
 * What a person chooses for the thread shown: its instructions, thinking, sampling, model and
 * knowledge collections. Each is saved at once and the page shows the thread as the server
 * answers it; in a new chat the model and collections wait here until its thread is made.
 */
export function useThreadChoices({
  currentId,
  view,
  showIfCurrent,
  onError,
}: {
  currentId: string | null;
  view: ThreadView | null;
  showIfCurrent: (threadId: string) => (v: ThreadView) => void;
  onError: (message: string | null) => void;
}) {
  /** The model chosen for a new chat before its first message (the thread is made when it is sent). */
  const [pendingModel, setPendingModel] = useState<string | null>(null);
  /** Collections picked with "#" in a new chat: the thread searches them from its first turn. */
  const [pendingCollections, setPendingCollections] = useState<Collection[]>([]);

  /** Saves a change to the thread shown; false when there is none or it was refused (the notice says why). */
  const save = async (patch: Parameters<typeof api.patchThread>[1]): Promise<boolean> => {
    const threadId = currentId;
    if (!threadId) return false;
    try {
      showIfCurrent(threadId)(await api.patchThread(threadId, patch));
      return true;
    } catch (err) {
      onError((err as Error).message);
      return false;
    }
  };

  return {
    /** The model the thread shown asks for (null: the default); in a new chat, the one its thread will have. */
    model: currentId ? (view?.model ?? null) : pendingModel,
    /** Collections picked for a new chat, until its thread exists. */
    pendingCollections: currentId ? [] : pendingCollections,
    dropPendingCollection: (id: string) => setPendingCollections((list) => list.filter((c) => c.id !== id)),
    /** Another thread is opened: a model picked for a new chat is forgotten. */
    forgetPending: useCallback(() => setPendingModel(null), []),
    /** A new chat's thread was just made: what was picked for it becomes the thread's before its first turn. */
    applyPending: async (threadId: string) => {
      if (!pendingModel && pendingCollections.length === 0) return;
      await api.patchThread(threadId, {
        ...(pendingModel ? { model: pendingModel } : {}),
        ...(pendingCollections.length ? { collectionIds: pendingCollections.map((c) => c.id) } : {}),
      });
      setPendingCollections([]);
    },
    saveInstructions: (systemPrompt: string) => save({ systemPrompt }),
    /** The thread's thinking: on, off, the model's default, or null to follow Settings. */
    setThinking: async (thinking: 'default' | 'on' | 'off' | null) => {
      await save({ thinking });
    },
    /** Sampling for the thread's replies (null: each server's defaults); false when it was refused. */
    setSampling: (sampling: Sampling | null) => save({ sampling }),
    /** The model this thread's turns ask for (null: the default); for a new chat, the one its thread will have. */
    setModel: async (model: string | null) => {
      if (!currentId) setPendingModel(model);
      else await save({ model });
    },
    /** A collection picked with "#": this thread searches it from now on (a new chat, from its first turn). */
    chooseCollection: async (collection: Collection) => {
      if (!currentId) {
        setPendingCollections((list) => (list.some((c) => c.id === collection.id) ? list : [...list, collection]));
        return;
      }
      const chosen = view?.collectionIds ?? [];
      if (!chosen.includes(collection.id)) await save({ collectionIds: [...chosen, collection.id] });
    },
  };
}
