import type { DecisionRecord } from '@/lib/contract/decisions';
import type { TurnStats } from '@/lib/contract/events';
import type { ApprovalRequest, LiveToolCall, SetAsideDraft, ThinkingBlock } from '@/lib/contract/turn-state';

export type AssistantProps = {
  content: string;
  streaming: boolean;
  status?: 'streaming' | 'complete' | 'interrupted' | 'error';
  errorCode?: string | null;
  error?: { code: string; message: string };
  stage?: string | null;
  queuePosition?: number;
  /** A cold model loading behind a router or llama-swap, and since when. */
  loading?: { model: string; since: number };
  /** The model that wrote it (a finished answer's). */
  model?: string | null;
  toolCalls: LiveToolCall[];
  decisions: DecisionRecord[];
  setAside: SetAsideDraft[];
  calculation?: { expression: string; result: string; exact: boolean; fraction?: string };
  /** The memory facts the answer drew on. */
  remembered?: string[];
  /** The model's thinking, each call's, where it stood among the tool calls (a stored one is done). */
  thinking?: (Omit<ThinkingBlock, 'done'> & { done?: boolean })[];
  /** The finished turn's figures. */
  stats?: TurnStats;
  /** Tool calls that ask the user first (a streaming turn's), and how to answer one. */
  approvals?: ApprovalRequest[];
  onApproval?: (callId: string, allow: boolean, always: boolean) => Promise<void>;
};
