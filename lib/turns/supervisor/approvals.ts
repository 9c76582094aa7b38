import type { ApprovalAnswer } from '@/lib/turns/engine/turn-io';

/**
 * Tool calls waiting for the user to allow them, by call id. Each is answered once: by the
 * user (allow once, always allow the tool, deny), or as denied when the turn stops or nobody
 * answers in time. Nothing runs that was not allowed.
 */

/** A call waiting for the user. */
type PendingApproval = { threadId: string; server: string; tool: string; answer: (a: ApprovalAnswer) => void };

export type ApprovalOptions = {
  /** How long a call waits for the user to allow it before it counts as denied. */
  timeoutMs?: number;
  /** "Always allow this tool": the tool runs without asking from now on. */
  allowAlways?: (server: string, tool: string) => void;
};

/** Ten minutes unanswered is no. */
const DEFAULT_TIMEOUT_MS = 10 * 60_000;

export class Approvals {
  private readonly pending = new Map<string, PendingApproval>();

  constructor(private readonly options: ApprovalOptions = {}) {}

  /**
   * The user's answer to a call waiting in this thread. False when no call of the thread is
   * waiting under that id (answered already, or gone).
   */
  answer({ threadId, callId, answer }: { threadId: string; callId: string; answer: ApprovalAnswer }): boolean {
    const pending = this.pending.get(callId);
    if (!pending || pending.threadId !== threadId) return false;
    this.pending.delete(callId);
    if (answer === 'always') this.options.allowAlways?.(pending.server, pending.tool);
    pending.answer(answer);
    return true;
  }

  /** Waits for the user's answer to one call of a thread's turn; a stopped turn's call is denied. */
  wait(threadId: string, request: { callId: string; server: string; tool: string }, signal: AbortSignal) {
    return new Promise<ApprovalAnswer>((resolve) => {
      const done = (a: ApprovalAnswer) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        this.pending.delete(request.callId);
        resolve(a);
      };
      // Unanswered for too long is no: nothing runs that was not allowed.
      const timer = setTimeout(() => done('deny'), this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      timer.unref?.();
      const stop = () => done('deny');
      signal.addEventListener('abort', stop, { once: true });
      this.pending.set(request.callId, { threadId, server: request.server, tool: request.tool, answer: done });
    });
  }
}
