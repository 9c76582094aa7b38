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
  const add = useCallback(
    async (text: string) => {
      try {
        await api.addMemory(text);
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
  const edit = useCallback(
    async (id: string, text: string) => {
      try {
        await api.editMemory(id, text);
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
