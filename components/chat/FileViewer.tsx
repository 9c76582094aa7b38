'use client';

import { useEffect, useState } from 'react';
import type { AttachmentInfo } from '@/lib/contract/responses';
import { attachmentUrl } from './Images';
import { useDialogFocus } from './useDialogFocus';
import { AddToCollection } from '@/components/knowledge/AddToCollection';

/** More than this is not put in the page at once (a 50 MB log would stall it); the download has it all. */
export const SHOWN_CHARS = 500_000;

type Loaded = { state: 'loading' } | { state: 'ready'; text: string } | { state: 'failed'; message: string };

/** A PDF or Word file is shown as the text Hearth read from it; a text file as it is. */
const readFromDocument = (file: AttachmentInfo) => file.kind === 'pdf' || file.kind === 'docx';

/**
 * An attached file, opened: its text (for a PDF or Word file, the text Hearth read from it,
 * which is what the model reads) with a Download of the file as it came. Escape or Close closes it.
 */
export function FileViewer({ file, onClose }: { file: AttachmentInfo; onClose: () => void }) {
  const close = useDialogFocus(onClose);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    void (async () => {
      try {
        const res = await fetch(`${attachmentUrl(file.id)}?part=text`, { signal: abort.signal });
        if (!res.ok) {
          const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
          setLoaded({ state: 'failed', message: body?.error?.message ?? `The file could not be read (HTTP ${res.status}).` });
          return;
        }
        setLoaded({ state: 'ready', text: await res.text() });
      } catch (err) {
        if (!abort.signal.aborted) setLoaded({ state: 'failed', message: `The file could not be read: ${(err as Error).message}` });
      }
    })();
    return () => abort.abort();
  }, [file.id]);
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={file.name}
      data-testid="file-viewer"
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-2 sm:p-6"
      onClick={onClose}
    >
      <div
        className="flex h-full w-full max-w-4xl flex-col overflow-hidden rounded-xl bg-white shadow-xl dark:bg-stone-900"
        onClick={(e) => e.stopPropagation()}
      >
        <div className="flex items-center gap-2 border-b border-stone-200 px-4 py-2 dark:border-stone-700">
          <h2 className="min-w-0 flex-1 truncate font-medium">{file.name}</h2>
          {file.kind !== 'image' && file.kind !== 'audio' && <AddToCollection attachmentId={file.id} />}
          <a
            href={attachmentUrl(file.id)}
            download={file.name}
            data-testid="file-download"
            className="rounded-md border border-stone-300 px-3 py-1 text-sm dark:border-stone-600"
          >
            Download
          </a>
          <button
            ref={close}
            type="button"
            onClick={onClose}
            className="rounded-md border border-stone-300 px-3 py-1 text-sm dark:border-stone-600"
          >
            Close
          </button>
        </div>
        {file.kind === 'audio' && (
          <div className="border-b border-stone-200 px-4 py-2 dark:border-stone-700">
            <audio controls preload="metadata" src={attachmentUrl(file.id)} data-testid="recording-player" className="w-full" />
            <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">
              What you said, kept (Settings → Voice → Keep recordings). Below, what the speech-to-text server heard: the words the message
              sent.
            </p>
          </div>
        )}
        {readFromDocument(file) && (
          <p className="border-b border-stone-200 px-4 py-1 text-xs text-stone-600 dark:border-stone-700 dark:text-stone-400">
            The text Hearth read from this {file.kind === 'pdf' ? 'PDF' : 'Word file'}, as the model reads it. Download it for the original.
          </p>
        )}
        <div className="min-h-0 flex-1 overflow-auto">
          {loaded.state === 'loading' && <p className="p-4 text-sm text-stone-600 dark:text-stone-400">Reading…</p>}
          {loaded.state === 'failed' && (
            <p role="alert" className="p-4 text-sm text-red-700 dark:text-red-400">
              {loaded.message}
            </p>
          )}
          {loaded.state === 'ready' && (
            <>
              <pre data-testid="file-text" className="whitespace-pre-wrap break-words p-4 font-mono text-sm">
                {loaded.text.slice(0, SHOWN_CHARS)}
              </pre>
              {loaded.text.length > SHOWN_CHARS && (
                <p className="px-4 pb-4 text-sm text-stone-600 dark:text-stone-400">
                  The first {SHOWN_CHARS.toLocaleString('en')} characters of {loaded.text.length.toLocaleString('en')}: download the file
                  for the rest.
                </p>
              )}
            </>
          )}
        </div>
      </div>
    </div>
  );
}
