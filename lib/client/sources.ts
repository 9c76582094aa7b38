import { citationsOf } from '@/lib/client/citations';
import { cut, hostOf } from '@/lib/shared/words/tools';

/**
 * The sources under a researched answer, as chips: the pages its turn read (fetch_url), the
 * search results the answer links, and the documents whose passages it cites (or, when it cites
 * none by number, those its searches found). Everything here comes from tool results, so a web
 * address is kept only when it is http(s): a result cannot put a javascript: link on the page.
 */

export type Source = { kind: 'page' | 'document'; href: string; label: string; detail: string };

type Call = { name: string; ok?: boolean; result?: unknown };

/** At most this many chips: a long list is the tool cards' job. */
export const MAX_SOURCES = 8;

function webHref(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

export function sourcesOf(calls: Call[], answer: string): Source[] {
  const out = new Map<string, Source>();
  const add = (s: Source) => {
    if (!out.has(s.href)) out.set(s.href, s);
  };
  const mentioned = (href: string, raw: string) => answer.includes(raw) || answer.includes(href);

  for (const call of calls) {
    if (!call.ok || !call.result || typeof call.result !== 'object') continue;
    const result = call.result as Record<string, unknown>;
    if (call.name === 'fetch_url') {
      const href = webHref(result.url);
      if (href) add({ kind: 'page', href, label: cut(text(result.title) || hostOf(href), 60), detail: hostOf(href) });
    } else if (call.name === 'web_search' && Array.isArray(result.results)) {
      for (const r of result.results as Record<string, unknown>[]) {
        const href = webHref(r?.url);
        if (href && mentioned(href, text(r.url)))
          add({ kind: 'page', href, label: cut(text(r.title) || hostOf(href), 60), detail: hostOf(href) });
      }
    }
  }

  // Documents: one chip a file, for the passages the answer cites by number.
  const citations = citationsOf(calls);
  const cited = [...citations.entries()].filter(([n]) => new RegExp(`\\[${n}\\]`).test(answer));
  for (const [, c] of cited.length ? cited : [...citations.entries()]) {
    const key = c.href.split('?')[0];
    if (![...out.values()].some((s) => s.kind === 'document' && s.href.split('?')[0] === key)) {
      add({ kind: 'document', href: c.href, label: cut(c.file, 60), detail: c.title });
    }
  }
  return [...out.values()].slice(0, MAX_SOURCES);
}
