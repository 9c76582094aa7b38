'use client';

import { useEffect, useRef, useState } from 'react';
import type { ModelCheck } from '@/lib/contract/responses';

/** A Settings section's anchor, from its title: "Turn budget" → settings-turn-budget. */
export function sectionId(title: string): string {
  return `settings-${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

/**
 * "On this page": a link to each section of Settings, read from the sections the page shows,
 * so a section added later is listed without anyone remembering to add it here.
 */
export function SettingsContents() {
  const nav = useRef<HTMLElement>(null);
  const [sections, setSections] = useState<{ id: string; title: string }[]>([]);
  useEffect(() => {
    const page = nav.current?.closest('main') ?? document;
    setSections(
      Array.from(page.querySelectorAll<HTMLElement>('section[id^="settings-"]')).map((s) => ({
        id: s.id,
        title: s.querySelector('h2')?.textContent ?? s.id,
      })),
    );
  }, []);
  return (
    <nav ref={nav} aria-label="Settings sections" data-testid="settings-contents" className="text-sm">
      <ul className="flex flex-wrap gap-x-3 gap-y-1">
        {sections.map((s) => (
          <li key={s.id}>
            <a href={`#${s.id}`} className="text-amber-800 underline dark:text-amber-300">
              {s.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Every model the checked servers offer; null until each server has answered (or failed to). */
export function offeredModels(urls: string[], checks: Record<string, ModelCheck | 'checking'>): Set<string> | null {
  const done = urls.map((u) => checks[u]).filter((c): c is ModelCheck => c !== undefined && c !== 'checking');
  if (done.length < urls.length || !done.some((c) => c.reachable)) return null;
  return new Set(done.flatMap((c) => [...(c.id ? [c.id] : []), ...(c.models ?? []).map((m) => m.id)]));
}

const warningClass = 'text-xs text-amber-800 dark:text-amber-300';

/** The checks model named is offered by no server that answered: the checks quietly fall back to each thread's model. */
export function ChecksModelWarning({ model, offered }: { model: string; offered: Set<string> | null }) {
  const name = model.trim();
  if (!name || !offered || offered.has(name)) return null;
  return (
    <p role="status" data-testid="checks-model-warning" className={warningClass}>
      No model server offers “{name}” now ({[...offered].join(', ') || 'none listed'}): until one does, each thread&apos;s own model does
      the checks.
    </p>
  );
}

/** Web search is ticked, but with no SearXNG address the tool is not offered at all. */
export function WebSearchWarning({ ticked, searxngUrl }: { ticked: boolean; searxngUrl: string }) {
  if (!ticked || searxngUrl.trim()) return null;
  return (
    <p role="status" data-testid="web-search-warning" className={warningClass}>
      Web search is ticked, but no SearXNG address is set below: until one is, the model is not offered web search.
    </p>
  );
}
