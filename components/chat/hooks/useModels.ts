'use client';

import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { ModelView } from '@/lib/contract/responses';

/**
 * The models the model servers offer (GET /api/models), for the thread's model picker and
 * "Regenerate with…": read at start, and again when asked (the picker is opened, a turn ended:
 * a router may have loaded or dropped one). Null until the first answer.
 */
export function useModels() {
  const [models, setModels] = useState<ModelView[] | null>(null);
  const refresh = useCallback(async () => {
    try {
      setModels((await api.listModels()).models);
    } catch {
      // Not reachable now: the picker keeps what it had (or offers only the default).
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return { models, refresh };
}
