'use client';

import { REASON_LABEL } from '@/lib/client/turn-text';
import { CopyButton } from './CopyButton';
import { Markdown } from './Markdown';
import { citationsOf } from '@/lib/client/citations';
import { Sources } from './Sources';
import type { AssistantProps } from './answer/types';
import { searchWords } from '@/lib/client/answer-words';
import { ApprovalCard } from './answer/ApprovalCard';
import { Decisions } from './answer/Checks';
import { Figures } from './answer/Figures';
import { QueryCard } from './answer/QueryCard';
import { StageLine } from './answer/StageLine';
import { Thinking } from './answer/Thinking';
import { ToolCallCard } from './answer/ToolCallCard';
import { TurnError } from './answer/TurnError';

export type { AssistantProps } from './answer/types';

/**
 * One assistant reply, laid out: why-it-was-checked decisions, tool calls, a calculation,
 * set-aside drafts, the answer with its sources, its figures. Each card is its own file in answer/.
 */
export function AssistantMessage(p: AssistantProps) {
  const visibleText = p.content;
  const thinking = p.thinking ?? [];
  const searches = searchWords(p.toolCalls);
  return (
    <div data-testid="assistant-message" data-status={p.streaming ? 'streaming' : (p.status ?? 'complete')} className="space-y-2">
      <Decisions records={p.decisions} />
      {p.setAside.map((d, i) => {
        const ledTo = d.reason === 'no_research' ? undefined : (d.query ?? searches[i]);
        return (
          <details
            key={i}
            data-testid="set-aside-draft"
            data-reason={d.reason}
            className="rounded-md border border-dashed border-stone-300 px-3 py-1 text-sm text-stone-600 dark:border-stone-700 dark:text-stone-400"
          >
            <summary className="cursor-pointer text-xs font-medium">
              {REASON_LABEL[d.reason] ?? 'Set aside'}
              {ledTo ? ` — so it searched for “${ledTo}”` : ''}
            </summary>
            <div className="mt-1 line-through decoration-stone-400/60">{d.text}</div>
          </details>
        );
      })}
      {(p.toolCalls.length > 0 || thinking.length > 0) && (
        <div className="space-y-1">
          {/* Each call's thinking before the tool calls it led to; the last one's before the answer. */}
          {p.toolCalls.map((c, i) => (
            <div key={c.id} className="space-y-1">
              {thinking
                .filter((b) => b.toolCallsBefore === i)
                .map((b, j) => (
                  <Thinking key={`${i}-${j}`} block={b} />
                ))}
              {c.name === 'query_table' && c.ok ? <QueryCard call={c} /> : <ToolCallCard call={c} />}
            </div>
          ))}
          {thinking
            .filter((b) => b.toolCallsBefore >= p.toolCalls.length)
            .map((b, j) => (
              <Thinking key={`end-${j}`} block={b} />
            ))}
        </div>
      )}
      {(p.approvals ?? []).map((a) => (
        <ApprovalCard key={a.callId} request={a} onAnswer={p.onApproval} />
      ))}
      {p.calculation && (
        <div
          data-testid="calculation"
          className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-800 dark:bg-amber-950"
        >
          <div className="text-xs uppercase tracking-wide text-amber-800 dark:text-amber-300">Calculated exactly</div>
          <div className="font-mono">
            {p.calculation.expression} = <strong data-testid="calculation-result">{p.calculation.result}</strong>
            {p.calculation.fraction ? <span className="opacity-70"> (= {p.calculation.fraction})</span> : null}
          </div>
        </div>
      )}
      {visibleText ? (
        <div data-testid="answer">
          <Markdown text={visibleText} citations={citationsOf(p.toolCalls)} />
          {!p.streaming && <Sources calls={p.toolCalls} answer={visibleText} />}
          {!p.streaming && p.remembered && p.remembered.length > 0 && (
            <p
              data-testid="remembered"
              className="mt-1 text-xs text-stone-600 dark:text-stone-400"
              title="Facts from Memory (in the sidebar) that this answer drew on; edit or forget them there."
            >
              From memory:{' '}
              {p.remembered.map((f, i) => (
                <span key={i}>
                  {i > 0 ? '; ' : ''}
                  <span data-testid="remembered-fact">{f}</span>
                </span>
              ))}
            </p>
          )}
          {!p.streaming && (
            <div className="mt-1 flex items-center justify-between gap-2">
              <div className="flex flex-wrap items-baseline gap-x-2">
                {p.model && (
                  <span
                    data-testid="answer-model"
                    className="text-xs font-medium text-stone-600 dark:text-stone-400"
                    title="The model that wrote this answer"
                  >
                    {p.model}
                  </span>
                )}
                {p.stats && <Figures stats={p.stats} tools={p.toolCalls.map((c) => c.name)} />}
              </div>
              <CopyButton text={visibleText} label="Copy the answer (Markdown)" testId="copy-answer" />
            </div>
          )}
        </div>
      ) : null}
      {p.streaming && (
        <StageLine
          stage={p.stage}
          toolCalls={p.toolCalls}
          queuePosition={p.queuePosition}
          thinking={p.thinking}
          loading={p.loading}
          writing={visibleText.trim().length > 0}
        />
      )}
      {!p.streaming && p.status === 'interrupted' && (
        <div className="text-xs text-stone-600 dark:text-stone-400" data-testid="interrupted-note">
          Stopped. The partial answer was kept.
        </div>
      )}
      {p.error && p.error.code !== 'cancelled' ? (
        <TurnError code={p.error.code} message={p.error.message} />
      ) : (
        !p.streaming && p.status === 'error' && <TurnError code={p.errorCode ?? 'error'} />
      )}
    </div>
  );
}
