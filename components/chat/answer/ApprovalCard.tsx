'use client';

import { useState } from 'react';
import type { ApprovalRequest } from '@/lib/contract/turn-state';
import { toolLabel } from '@/lib/shared/words/tools';
import type { AssistantProps } from './types';

/**
 * A tool call waiting for the user: which server's tool, with what arguments, and three
 * answers. Nothing runs before one is given; the turn waits (a reload shows the card again).
 */
export function ApprovalCard({ request, onAnswer }: { request: ApprovalRequest; onAnswer?: AssistantProps['onApproval'] }) {
  const [sending, setSending] = useState(false);
  let args = request.arguments;
  try {
    args = JSON.stringify(JSON.parse(request.arguments), null, 2);
  } catch {
    // shown as the model wrote it
  }
  const answer = (allow: boolean, always: boolean) => {
    setSending(true);
    void onAnswer?.(request.callId, allow, always).finally(() => setSending(false));
  };
  const button = 'rounded-md border px-2 py-1 text-xs font-medium disabled:opacity-50';
  return (
    <div
      role="group"
      aria-label={`Allow ${toolLabel(request.tool)}?`}
      data-testid="approval-card"
      data-status={request.status}
      className="rounded-md border border-amber-400 bg-amber-50 px-3 py-2 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      <p>
        <strong className="font-medium">{request.server}</strong> wants to run{' '}
        <strong className="font-medium" title={request.tool}>
          “{toolLabel(request.tool).replace(`${request.server}: `, '')}”
        </strong>
        {request.status === 'pending' ? '. Allow it?' : request.status === 'allowed' ? ': allowed.' : ': denied.'}
      </p>
      <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-white/70 p-1 text-[11px] dark:bg-stone-900">
        {args}
      </pre>
      {request.status === 'pending' && (
        <div className="mt-2 flex flex-wrap gap-2">
          <button
            type="button"
            data-testid="approval-allow"
            disabled={sending}
            className={`${button} border-emerald-500`}
            onClick={() => answer(true, false)}
          >
            Allow once
          </button>
          <button
            type="button"
            data-testid="approval-always"
            disabled={sending}
            className={`${button} border-emerald-500`}
            onClick={() => answer(true, true)}
          >
            Always allow this tool
          </button>
          <button
            type="button"
            data-testid="approval-deny"
            disabled={sending}
            className={`${button} border-red-400`}
            onClick={() => answer(false, false)}
          >
            Deny
          </button>
        </div>
      )}
    </div>
  );
}
