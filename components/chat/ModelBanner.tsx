'use client';

import { llamaServerCommand } from '@/lib/client/error-text';
import type { Health } from '@/lib/contract/responses';

/** Model servers that are down, or every one when health could not be read at all. */
export function downServers(health: Health): { url: string; error?: string }[] {
  if (health.servers?.length) return health.servers.filter((s) => !s.up || !s.reachable);
  return health.model.reachable ? [] : [{ url: health.model.url, error: health.model.error }];
}

/** Says which model servers cannot be reached, and how to start one when none can. */
export function ModelBanner({ health }: { health: Health | null }) {
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
        Start llama-server{total === 1 ? '' : ' on one of them'}, then this banner goes away by itself:{' '}
        <code data-testid="model-banner-command" className="rounded bg-amber-100 px-1 dark:bg-amber-900">
          {llamaServerCommand(down[0].url)}
        </code>
      </div>
    </div>
  );
}
