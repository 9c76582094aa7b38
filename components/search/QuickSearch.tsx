'use client';

import { FileText } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { SearchFilters, SearchResult } from '@/lib/contract/responses';

/**
 * The quick-search dialog (Ctrl+K, or the sidebar's Search button): results as you type, best
 * first; arrow keys move, Enter opens the thread at the message, Escape closes. Filters narrow
 * it to this thread, one side of the conversation, or a recent stretch of time.
 */

/** Waits this long after a key before asking, so a fast typist sends one query, not five. */
const TYPING_PAUSE_MS = 120;

const PERIODS = { any: 0, week: 7, month: 31, year: 366 } as const;
type Period = keyof typeof PERIODS;

export function QuickSearch(p: {
  currentThreadId: string | null;
  search: (q: string, filters: SearchFilters, signal: AbortSignal) => Promise<SearchResult[]>;
  onOpen: (hit: SearchResult) => void;
  onClose: () => void;
}) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<SearchResult[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const [inThread, setInThread] = useState(false);
  const [role, setRole] = useState<'' | 'user' | 'assistant'>('');
  const [thinking, setThinking] = useState(false);
  const [period, setPeriod] = useState<Period>('any');
  const input = useRef<HTMLInputElement | null>(null);
  const { search, currentThreadId } = p;

  useEffect(() => input.current?.focus(), []);

  useEffect(() => {
    const query = q.trim();
    if (!query) {
      setHits(null);
      setError(null);
      return;
    }
    const abort = new AbortController();
    const filters: SearchFilters = {
      ...(inThread && currentThreadId ? { threadId: currentThreadId } : {}),
      ...(role ? { role } : {}),
      ...(thinking ? { thinking: 'true' as const } : {}),
      ...(PERIODS[period] ? { from: new Date(Date.now() - PERIODS[period] * 86_400_000).toISOString() } : {}),
    };
    const timer = setTimeout(() => {
      search(query, filters, abort.signal)
        .then((results) => {
          setHits(results);
          setError(null);
          setActive(0);
        })
        .catch((err: unknown) => {
          if (!abort.signal.aborted) setError((err as Error).message);
        });
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [q, inThread, role, period, thinking, search, currentThreadId]);

  const open = (hit: SearchResult | undefined) => hit && p.onOpen(hit);

  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-stone-900/40 p-4 pt-[10vh]"
      onMouseDown={(e) => e.target === e.currentTarget && p.onClose()}
    >
      <div
        role="dialog"
        aria-modal="true"
        aria-label="Search conversations"
        data-testid="quick-search"
        className="w-full max-w-xl rounded-xl bg-white shadow-2xl dark:bg-stone-900"
      >
        <input
          ref={input}
          type="search"
          data-testid="quick-search-input"
          aria-label="Search conversations"
          aria-controls="quick-search-results"
          placeholder="Search messages, files and titles"
          maxLength={200}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') p.onClose();
            else if (e.key === 'ArrowDown') {
              e.preventDefault();
              setActive((i) => Math.min(i + 1, (hits?.length ?? 1) - 1));
            } else if (e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((i) => Math.max(i - 1, 0));
            } else if (e.key === 'Enter') {
              e.preventDefault();
              open(hits?.[active]);
            }
          }}
          className="focus-inset w-full rounded-t-xl border-b border-stone-200 bg-transparent px-4 py-3 dark:border-stone-800"
        />
        <div className="flex flex-wrap items-center gap-3 border-b border-stone-200 px-4 py-1.5 text-xs text-stone-600 dark:border-stone-800 dark:text-stone-400">
          {currentThreadId && (
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                data-testid="quick-search-this-thread"
                checked={inThread}
                onChange={(e) => setInThread(e.target.checked)}
              />
              This thread
            </label>
          )}
          <select aria-label="Who said it" value={role} onChange={(e) => setRole(e.target.value as typeof role)} className="bg-transparent">
            <option value="">Anyone</option>
            <option value="user">You</option>
            <option value="assistant">Assistant</option>
          </select>
          <label className="flex items-center gap-1" title="The models' thinking is left out of searches unless you ask for it">
            <input type="checkbox" data-testid="quick-search-thinking" checked={thinking} onChange={(e) => setThinking(e.target.checked)} />
            Thinking too
          </label>
          <select aria-label="When" value={period} onChange={(e) => setPeriod(e.target.value as Period)} className="bg-transparent">
            <option value="any">Any time</option>
            <option value="week">Past week</option>
            <option value="month">Past month</option>
            <option value="year">Past year</option>
          </select>
          <span className="ml-auto">↑↓ to move, Enter to open, Esc to close</span>
        </div>
        <ul
          id="quick-search-results"
          role="listbox"
          data-testid="quick-search-results"
          className="max-h-[60vh] overflow-y-auto p-1 text-sm"
        >
          {error && <li className="px-3 py-2 text-red-700 dark:text-red-300">{error}</li>}
          {hits && hits.length === 0 && !error && <li className="px-3 py-2 text-stone-600 dark:text-stone-400">Nothing found.</li>}
          {hits?.map((h, i) => (
            <li
              key={`${h.kind}-${h.messageId ?? h.threadId}-${h.attachment?.id ?? ''}`}
              role="option"
              aria-selected={i === active}
              data-testid="quick-search-hit"
              data-kind={h.kind}
              data-role={h.role ?? undefined}
              className={`cursor-pointer rounded-lg px-3 py-2 ${i === active ? 'bg-amber-100 dark:bg-amber-900/40' : ''}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => open(h)}
            >
              <div className="flex items-baseline gap-2">
                <span className="truncate font-medium">{h.title || 'New chat'}</span>
                <span className="ml-auto shrink-0 text-xs text-stone-600 dark:text-stone-400">
                  {h.kind === 'title' ? (
                    'title'
                  ) : h.kind === 'thinking' ? (
                    'thinking'
                  ) : h.kind === 'attachment' ? (
                    <>
                      <FileText className="mr-0.5 inline h-3 w-3 align-[-1px]" />
                      {h.attachment?.name ?? 'file'}
                    </>
                  ) : h.role === 'user' ? (
                    'you'
                  ) : (
                    'assistant'
                  )}
                  {h.byMeaning && (
                    <span data-testid="by-meaning" title="None of its words matched: found by what it means">
                      {' · by meaning'}
                    </span>
                  )}
                  {' · '}
                  {new Date(h.createdAt).toLocaleDateString()}
                </span>
              </div>
              {h.kind !== 'title' && <Snippet text={h.snippet} highlights={h.highlights} />}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** The snippet with what matched marked (ranges from the server, clamped: they are outside input too). */
function Snippet({ text, highlights }: { text: string; highlights: [number, number][] }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const [start, end] of [...highlights].sort((a, b) => a[0] - b[0])) {
    const s = Math.max(at, Math.min(start, text.length));
    const e = Math.max(s, Math.min(end, text.length));
    if (s > at) parts.push(text.slice(at, s));
    if (e > s)
      parts.push(
        <mark key={s} className="rounded bg-amber-200 px-0.5 dark:bg-amber-700/60">
          {text.slice(s, e)}
        </mark>,
      );
    at = e;
  }
  parts.push(text.slice(at));
  return <div className="mt-0.5 line-clamp-2 text-xs text-stone-600 dark:text-stone-400">{parts}</div>;
}
