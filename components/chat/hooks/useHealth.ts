'use client';

import { useCallback, useEffect, useState } from 'react';
import { api } from '@/lib/client/api';
import type { Health } from '@/lib/contract/responses';
import { downServers } from '../ModelBanner';

/** How often the model banner re-checks llama-server while it is down. */
const HEALTH_RETRY_MS = 10_000;

/** The model servers' health: read at start, after a turn that could not reach one, and every 10 s while one is down. */
export function useHealth() {
  const [health, setHealth] = useState<Health | null>(null);
  const check = useCallback(async () => {
    try {
      setHealth(await api.health());
    } catch {
      setHealth({ ok: false, db: false, model: { url: 'llama-server', reachable: false } });
    }
  }, []);
  useEffect(() => {
    void check();
  }, [check]);
  useEffect(() => {
    if (!health || downServers(health).length === 0) return;
    const timer = setInterval(() => void check(), HEALTH_RETRY_MS);
    return () => clearInterval(timer);
  }, [health, check]);
  return { health, check };
}
