'use client';

import { useEffect, useState } from 'react';
import type { DecisionRecord } from '@/lib/contract/decisions';
import type { TurnStats } from '@/lib/contract/events';
import type { ApprovalRequest, LiveToolCall, SetAsideDraft, ThinkingBlock } from '@/lib/contract/turn-state';
import { describeDecision, percent } from '@/lib/words/decisions';
import { duration, REASON_LABEL, resultPreview, speed, stageLine, thinkingLabel } from '@/lib/client/turn-text';
import { toolDoing, toolLabel } from '@/lib/words/tools';
import { turnEnding } from '@/lib/client/error-text';
import { CopyButton } from './CopyButton';
import { Markdown } from './Markdown';
import { citationsOf } from '@/lib/client/citations';
import { Sources } from './Sources';

/** One assistant reply: why-it-was-checked decisions, tool calls, a calculation, set-aside drafts, the answer. */

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

/** What "fuel" means, where the page says it. */
const FUEL_HELP =
  'Fuel is what this reply spent of its budget: a model call costs 100, a tool run 1 to 5. A reply that runs out stops and says so (Settings → Turn budget).';
/** What the Checks are, where the page shows them. */
const CHECKS_HELP =
  'Before an answer is shown, Hearth asks the model short questions about it (does it need current information? does it answer the question?) and keeps the answers with their probabilities.';

/** Under an answer, what it took: time to the first word, speed, model calls, tools, fuel; a compiled answer says so. */
function Figures({ stats, tools }: { stats: TurnStats; tools: string[] }) {
  const parts: string[] = [];
  if (stats.firstThinkingMs !== undefined) parts.push(`thinking after ${duration(stats.firstThinkingMs)}`);
  if (stats.thinkingTokens) parts.push(`thought ${duration(stats.thinkingMs ?? 0)} (${stats.thinkingTokens.toLocaleString('en')} tokens)`);
  if (stats.firstTokenMs !== undefined) parts.push(`first word after ${duration(stats.firstTokenMs)}`);
  if (stats.tokensPerSecond !== undefined) parts.push(speed(stats.tokensPerSecond));
  parts.push(`${stats.modelCalls} model call${stats.modelCalls === 1 ? '' : 's'}`);
  if (tools.length) parts.push(`tools: ${[...new Set(tools.map(toolLabel))].join(', ')}`);
  const fuelAt = parts.push(`fuel ${stats.fuelUsed}`) - 1;
  parts.push(`${(stats.ms / 1000).toFixed(1)} s in all`);
  return (
    <div data-testid="answer-figures" className="text-xs text-stone-600 dark:text-stone-400">
      {stats.compiled && (
        <span
          data-testid="compiled-note"
          className="mr-2 rounded bg-amber-100 px-1 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200"
          title="The model wrote no answer; Hearth put this one together from what the tools found."
        >
          compiled by Hearth from the tool results
        </span>
      )}
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 && ' · '}
          {i === fuelAt ? (
            <abbr data-testid="answer-fuel" title={FUEL_HELP} className="cursor-help no-underline">
              {part}
            </abbr>
          ) : (
            part
          )}
        </span>
      ))}
    </div>
  );
}

/** What the remember tool did, in words: the turn shows what was remembered or forgotten. */
function memoryChange(call: LiveToolCall): string | null {
  if (call.name !== 'remember' || !call.ok || !call.result || typeof call.result !== 'object') return null;
  const r = call.result as { remembered?: unknown; replaced?: unknown; forgotten?: unknown };
  if (typeof r.forgotten === 'string') return `Forgot: ${r.forgotten}`;
  if (typeof r.remembered !== 'string') return null;
  return typeof r.replaced === 'string' ? `Remembered: ${r.remembered} (replacing: ${r.replaced})` : `Remembered: ${r.remembered}`;
}

/**
 * One tool call as a card, collapsed: what it did in words, a one-line result, ok or failed,
 * its time, or "answered from the ledger" for a repeat; opened: the arguments and the result.
 */
function ToolCallCard({ call }: { call: LiveToolCall }) {
  const change = memoryChange(call);
  const pending = call.ok === undefined;
  const tone = pending
    ? 'border-stone-300 text-stone-700 dark:border-stone-700 dark:text-stone-300'
    : call.ok
      ? 'border-emerald-300 text-emerald-900 dark:border-emerald-800 dark:text-emerald-200'
      : 'border-red-300 text-red-800 dark:border-red-900 dark:text-red-200';
  const outcome = pending ? 'running…' : call.repeat ? 'answered from the ledger' : call.ok ? `✓ ${call.ms ?? 0} ms` : '✗ failed';
  let args = call.arguments;
  try {
    args = JSON.stringify(JSON.parse(call.arguments), null, 2);
  } catch {
    // shown as the model wrote it
  }
  return (
    <details
      data-testid="tool-call"
      data-tool={call.name}
      data-ok={pending ? undefined : String(call.ok)}
      className={`rounded-md border px-2 py-1 text-xs ${tone}`}
    >
      <summary className="flex cursor-pointer list-none items-center gap-2">
        <span aria-hidden="true">▸</span>
        <span className="font-mono font-semibold">{call.name}</span>
        <span
          className={`min-w-0 flex-1 ${change ? 'break-words' : 'truncate'}`}
          data-testid={change ? 'memory-change' : 'tool-call-doing'}
        >
          {change ?? toolDoing(call, !pending)}
        </span>
        <span className="shrink-0" data-testid="tool-call-outcome">
          {outcome}
        </span>
      </summary>
      <div className="mt-1 space-y-1">
        {!change && (
          <p data-testid="tool-call-preview" className="break-words">
            {resultPreview(call)}
          </p>
        )}
        <div className="text-[11px] font-medium">Arguments</div>
        <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-stone-100 p-1 text-[11px] text-stone-900 dark:bg-stone-900 dark:text-stone-100">
          {args}
        </pre>
        {!pending && (
          <>
            <div className="text-[11px] font-medium">{call.ok ? 'Result' : 'Error'}</div>
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-stone-100 p-1 text-[11px] text-stone-900 dark:bg-stone-900 dark:text-stone-100">
              {call.ok ? JSON.stringify(call.result, null, 2) : call.error}
            </pre>
          </>
        )}
      </div>
    </details>
  );
}

/** A query_table result as Hearth computed it: the query, the rows (the first ones, with how many in all), and who computed it. */
function QueryCard({ call }: { call: LiveToolCall }) {
  const r = (call.result ?? {}) as { file?: unknown; sql?: unknown; columns?: unknown; rows?: unknown; total_rows?: unknown };
  const columns = Array.isArray(r.columns) ? r.columns.map(String) : [];
  const rows = Array.isArray(r.rows) ? (r.rows as unknown[][]).filter(Array.isArray) : [];
  const total = typeof r.total_rows === 'number' ? r.total_rows : rows.length;
  const shown = rows.slice(0, 12);
  const cell = (v: unknown) =>
    v === null || v === undefined ? '' : typeof v === 'number' ? v.toLocaleString('en', { maximumFractionDigits: 10 }) : String(v);
  return (
    <div
      data-testid="query-card"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-800 dark:bg-amber-950"
    >
      <div className="text-xs uppercase tracking-wide text-amber-800 dark:text-amber-300">
        Computed by Hearth{typeof r.file === 'string' ? ` from ${r.file}` : ''}
      </div>
      <pre data-testid="query-sql" className="mt-1 whitespace-pre-wrap break-all font-mono text-xs">
        {typeof r.sql === 'string' ? r.sql : ''}
      </pre>
      <div className="mt-1 overflow-x-auto">
        <table data-testid="query-rows" className="text-xs">
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={i} className="pr-3 text-left font-medium">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row, i) => (
              <tr key={i}>
                {row.map((v, j) => (
                  <td key={j} className={`pr-3 ${typeof v === 'number' ? 'text-right font-mono' : ''}`}>
                    {cell(v)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > shown.length && (
        <div className="mt-1 text-xs text-amber-800 dark:text-amber-300">
          {shown.length} of {total.toLocaleString('en')} rows shown
        </div>
      )}
    </div>
  );
}

/**
 * The model's thinking before a reply or a tool call: open while it streams, folded once the
 * answer begins (and after a reload), with how long it took and its tokens. Not the answer: the
 * Copy button never takes it, and it is shown as plain text, never as Markdown.
 */
function Thinking({ block }: { block: NonNullable<AssistantProps['thinking']>[number] }) {
  const done = block.done !== false;
  return (
    <details
      data-testid="thinking"
      data-done={String(done)}
      open={!done}
      className="rounded-md border-l-2 border-stone-300 bg-stone-50 px-3 py-1 text-sm text-stone-600 dark:border-stone-700 dark:bg-stone-900/60 dark:text-stone-400"
    >
      <summary data-testid="thinking-label" className={`cursor-pointer select-none text-xs font-medium ${done ? '' : 'animate-pulse'}`}>
        {thinkingLabel({ ...block, done })}
      </summary>
      <div data-testid="thinking-text" className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap break-words text-xs leading-relaxed">
        {block.text.trim()}
      </div>
    </details>
  );
}

/**
 * A tool call waiting for the user: which server's tool, with what arguments, and three
 * answers. Nothing runs before one is given; the turn waits (a reload shows the card again).
 */
function ApprovalCard({ request, onAnswer }: { request: ApprovalRequest; onAnswer?: AssistantProps['onApproval'] }) {
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

/** The checks a reply went through, as sentences with a small bar for their probability. */
function Decisions({ records }: { records: DecisionRecord[] }) {
  if (records.length === 0) return null;
  return (
    <details data-testid="decisions" className="text-xs text-stone-600 dark:text-stone-400">
      <summary className="cursor-pointer select-none" title={CHECKS_HELP} data-testid="decisions-summary">
        Checks ({records.length})
      </summary>
      <ul className="mt-1 space-y-0.5">
        {records.map((r, i) => (
          <li key={`${r.stepId}-${r.at}-${i}`} data-testid="decision" data-step={r.stepId} className="flex flex-wrap gap-x-3">
            {describeDecision(r).map((line) => (
              <span key={line.label} className="inline-flex items-center gap-1">
                <span>
                  {line.label}: <strong className="font-medium">{line.text}</strong>
                  {line.p !== undefined ? `, ${percent(line.p)}` : ''}
                </span>
                {line.p !== undefined && (
                  <meter
                    min={0}
                    max={1}
                    value={line.p}
                    className="h-1.5 w-10"
                    aria-label={`${line.label}: ${line.text}, ${percent(line.p)} sure`}
                  />
                )}
              </span>
            ))}
            {r.source === 'estimated' && <span className="opacity-70">(estimated)</span>}
            {r.source === 'program' && (
              <span className="opacity-70" title="Decided by a rule in Hearth's own code, with no model call">
                (Hearth’s rule)
              </span>
            )}
            {r.source === 'classifier' && (
              <span className="opacity-70" title={`Scored by Hearth's own classifier (${r.modelId}), in the server, with no model call`}>
                (scored by Hearth, no model call)
              </span>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** How the turn ended badly: what happened (the server's words when they are at hand) and the next step. */
function TurnError({ code, message }: { code: string; message?: string }) {
  const ending = turnEnding(code);
  return (
    <div
      role="alert"
      data-testid="turn-error"
      data-code={code}
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
    >
      <p>{message ?? ending.what}</p>
      <p className="mt-1 text-xs" data-testid="turn-error-next">
        {ending.next}
        {ending.settings && (
          <>
            {' '}
            <a href="/settings" className="underline" data-testid="turn-error-settings">
              Open Settings
            </a>
          </>
        )}
      </p>
    </div>
  );
}

/** The words of each web search of the turn, in order: the searches set-aside drafts led to. */
function searchWords(calls: readonly LiveToolCall[]): string[] {
  return calls.flatMap((c) => {
    if (c.name !== 'web_search') return [];
    try {
      const q = (JSON.parse(c.arguments) as { query?: unknown }).query;
      return typeof q === 'string' ? [q] : [];
    } catch {
      return [];
    }
  });
}

/** The stage line, counting the seconds while a cold model loads. */
function StageLine(p: Pick<AssistantProps, 'stage' | 'toolCalls' | 'queuePosition' | 'thinking' | 'loading'> & { writing: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  const counting = p.stage === 'loading' && p.loading !== undefined;
  useEffect(() => {
    if (!counting) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, [counting]);
  return (
    <div data-testid="turn-status" className="animate-pulse text-xs text-stone-600 dark:text-stone-400">
      {stageLine(
        p.stage,
        p.toolCalls,
        p.queuePosition,
        p.thinking?.map((b) => ({ ...b, done: b.done !== false })),
        p.loading && { ...p.loading, now },
        p.writing,
      )}
    </div>
  );
}

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
