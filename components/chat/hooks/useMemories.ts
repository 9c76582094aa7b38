'use client';

import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { MemoryFact } from '@/lib/contract/responses';

/** The Memory panel's facts, and adding, editing and forgetting them. */
export function useMemories() {
  const [memories, setMemories] = useState<MemoryFact[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(async () => {
    try {
      setMemories((await api.listMemories()).memories);
    } catch (err) {
      setError((err as Error).message);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  /** A write from the panel: true once kept (the list read again), false with the refusal shown. */
  const write = useCallback(
    async (change: () => Promise<unknown>) => {
      try {
        await change();
        setError(null);
        await refresh();
        return true;
      } catch (err) {
        setError((err as Error).message);
        return false;
      }
    },
    [refresh],
  );
  const add = useCallback((text: string) => write(() => api.addMemory(text)), [write]);
  const edit = useCallback((id: string, text: string) => write(() => api.editMemory(id, text)), [write]);
  const forget = useCallback(
    (id: string) =>
      void api
        .forgetMemory(id)
        .then(refresh)
        .catch((e) => setError((e as Error).message)),
    [refresh],
  );
  return { memories, error, refresh, add, edit, forget };
}
