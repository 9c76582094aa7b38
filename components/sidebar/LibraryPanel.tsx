'use client';

import { useRef, useState } from 'react';
import type { ImportSummary } from '@/lib/contract/responses';
import { SETTING_LABELS } from '@/lib/contract/settings';

/** Moving the library: download it all as one file, or import such a file (or one thread's JSON export). */
export function LibraryPanel({
  onImport,
}: {
  onImport: (file: File, onProgress: (sent: number, total: number) => void) => Promise<ImportSummary>;
}) {
  const [busy, setBusy] = useState(false);
  /** How much of the file has gone to the server (a large export takes a while), then that it is being read. */
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const picker = useRef<HTMLInputElement | null>(null);
  return (
    <details data-testid="library-panel" className="border-t border-stone-200 pt-2 text-sm dark:border-stone-800">
      <summary className="cursor-pointer select-none px-1 font-medium">Library</summary>
      <div className="mt-1 flex flex-wrap gap-2 px-1">
        <a
          data-testid="export-library"
          href="/api/export"
          download
          className="rounded border border-stone-300 px-2 py-0.5 dark:border-stone-700"
        >
          Export all
        </a>
        <button
          type="button"
          data-testid="import-library"
          disabled={busy}
          className="rounded border border-stone-300 px-2 py-0.5 disabled:opacity-50 dark:border-stone-700"
          onClick={() => picker.current?.click()}
        >
          {busy ? 'Importing…' : 'Import…'}
        </button>
        <input
          ref={picker}
          type="file"
          accept=".jsonl,.json,.zip,application/json,application/x-ndjson,application/zip"
          data-testid="import-file"
          className="hidden"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setBusy(true);
            setMessage(null);
            setProgress({ sent: 0, total: file.size });
            try {
              const summary = await onImport(file, (sent, total) => setProgress({ sent, total }));
              // The file's theme, when this browser had none chosen (the server set its cookie too).
              if (summary.theme) document.documentElement.dataset.theme = summary.theme;
              setMessage({ ok: true, text: describe(summary) });
            } catch (err) {
              setMessage({ ok: false, text: (err as Error).message });
            } finally {
              setBusy(false);
              setProgress(null);
            }
          }}
        />
      </div>
      {progress && (
        <div className="mt-1 px-1 text-xs text-stone-600 dark:text-stone-400" data-testid="import-progress">
          <progress className="w-full" max={progress.total || 1} value={progress.sent} aria-label="Import progress" />
          {progress.sent < progress.total
            ? `Sending ${megabytes(progress.sent)} of ${megabytes(progress.total)}…`
            : 'Reading and checking it…'}
        </div>
      )}
      {message && (
        <div
          role="status"
          data-testid="import-result"
          className={`mt-1 px-1 text-xs ${message.ok ? 'text-stone-600 dark:text-stone-400' : 'text-red-700 dark:text-red-300'}`}
        >
          {message.text}
        </div>
      )}
    </details>
  );
}

/** Another app's export, said by the app's name. */
const SOURCE_NAMES = { chatgpt: 'ChatGPT', 'open-webui': 'Open WebUI', librechat: 'LibreChat', 'llama.cpp': "llama.cpp's page" } as const;

function describe(s: ImportSummary): string {
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const added = [
    plural(s.added.threads, 'thread'),
    plural(s.added.messages, 'message'),
    plural(s.added.memories, 'fact'),
    plural(s.added.files, 'file'),
    ...(s.added.collections ? [plural(s.added.collections, 'collection')] : []),
    ...(s.added.prompts ? [plural(s.added.prompts, 'saved prompt')] : []),
    ...(s.added.settings ? [plural(s.added.settings, 'setting')] : []),
  ].join(', ');
  const here = s.alreadyHere.threads + s.alreadyHere.messages + s.alreadyHere.memories + s.alreadyHere.settings;
  const from = s.source in SOURCE_NAMES ? ` from ${SOURCE_NAMES[s.source as keyof typeof SOURCE_NAMES]}` : '';
  const proposed = s.proposed.length
    ? ` ${plural(s.proposed.length, 'setting')} (${s.proposed.map((k) => SETTING_LABELS[k]).join(', ')}) wait for you in Settings: apply each one there if you trust this file.`
    : '';
  const servers = s.proposedToolServers.length
    ? ` ${plural(s.proposedToolServers.length, 'tool server')} (${s.proposedToolServers.join(', ')}) wait for you in Settings → Tool servers.`
    : '';
  const skipped = s.skipped.map((k) => ` Not imported: ${k.count} ${k.what} (${k.why}).`).join('');
  return `Imported${from} ${added}.${here ? ` ${plural(here, 'item')} already here kept as they were.` : ''}${s.theme ? ' The theme came too.' : ''}${proposed}${servers}${skipped}`;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
