'use client';

import { FileText, Globe } from 'lucide-react';
import { sourcesOf } from '@/lib/client/sources';

/**
 * The sources under a researched answer, as chips (lib/client/sources.ts): a web page opens apart
 * from Hearth, telling the site nothing; a document opens in the viewer at its passage.
 */
export function Sources({ calls, answer }: { calls: { name: string; ok?: boolean; result?: unknown }[]; answer: string }) {
  const sources = sourcesOf(calls, answer);
  if (sources.length === 0) return null;
  return (
    <nav aria-label="Sources" data-testid="sources" className="mt-2 flex flex-wrap items-center gap-1.5">
      <span className="text-xs text-stone-600 dark:text-stone-400">Sources</span>
      {sources.map((s) => {
        const Icon = s.kind === 'page' ? Globe : FileText;
        return (
          <a
            key={s.href}
            href={s.href}
            target="_blank"
            rel={s.kind === 'page' ? 'noopener noreferrer nofollow' : 'noopener'}
            title={s.detail}
            data-testid="source"
            data-kind={s.kind}
            className="inline-flex max-w-[16rem] items-center gap-1 rounded-full border border-stone-300 bg-white px-2 py-0.5 text-xs hover:bg-stone-100 dark:border-stone-700 dark:bg-stone-900 dark:hover:bg-stone-800"
          >
            <Icon aria-hidden className="size-3 shrink-0" />
            <span className="truncate">{s.label}</span>
            {s.kind === 'page' && s.detail !== s.label && <span className="shrink-0 text-stone-500">· {s.detail}</span>}
          </a>
        );
      })}
    </nav>
  );
}
