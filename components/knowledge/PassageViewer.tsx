'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { api } from '@/lib/client/api';

type Excerpt = Awaited<ReturnType<typeof api.passage>>;

/** A passage in its file: the lines around it numbered, its own highlighted and scrolled into view. */
export function PassageViewer({ collectionId, fileId, from, to }: { collectionId: string; fileId: string; from: number; to: number }) {
  const [excerpt, setExcerpt] = useState<Excerpt | null>(null);
  const [error, setError] = useState<string | null>(null);
  const firstHighlighted = useRef<HTMLDivElement | null>(null);
  useEffect(() => {
    api
      .passage(collectionId, fileId, from, to)
      .then(setExcerpt)
      .catch((err: Error) => setError(err.message));
  }, [collectionId, fileId, from, to]);
  useEffect(() => firstHighlighted.current?.scrollIntoView({ block: 'center' }), [excerpt]);
  return (
    <main className="mx-auto max-w-4xl space-y-3 p-4">
      <p className="text-sm">
        <Link href="/knowledge" className="underline">
          Knowledge
        </Link>
      </p>
      {error && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {!excerpt && !error && <p>Loading…</p>}
      {excerpt && (
        <>
          <h1 className="text-lg font-semibold" data-testid="passage-file">
            {excerpt.file.name}
          </h1>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Lines {excerpt.highlight.from}–{excerpt.highlight.to} of {excerpt.totalLines.toLocaleString('en')}
          </p>
          <div
            className="overflow-x-auto rounded-md border border-stone-200 font-mono text-xs dark:border-stone-800"
            data-testid="passage-lines"
          >
            {excerpt.lines.map((line, i) => {
              const no = excerpt.firstLine + i;
              const lit = no >= excerpt.highlight.from && no <= excerpt.highlight.to;
              return (
                <div
                  key={no}
                  ref={lit && no === excerpt.highlight.from ? firstHighlighted : undefined}
                  data-testid={lit ? 'passage-line-highlighted' : 'passage-line'}
                  className={`flex ${lit ? 'bg-amber-100 dark:bg-amber-900/50' : ''}`}
                >
                  <span className="w-14 shrink-0 select-none pr-2 text-right text-stone-500">{no}</span>
                  <span className="whitespace-pre-wrap break-words">{line || ' '}</span>
                </div>
              );
            })}
          </div>
        </>
      )}
    </main>
  );
}
