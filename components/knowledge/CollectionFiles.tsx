'use client';

import { useState } from 'react';
import { api, uploadToCollection } from '@/lib/client/api';
import { fileStatus, progressLine, sizeInKb, uploadOutcome } from '@/lib/client/knowledge-text';
import type { CollectionDetail } from '@/lib/contract/responses';
import { useFileDrop } from '@/components/chat/hooks/useFileDrop';

const ACCEPT = '.txt,.md,.markdown,.rst,.csv,.tsv,.json,.xml,.html,.log,.pdf,.docx,.xlsx,.ods,.zip,text/*,application/pdf,application/zip';

const TONE = {
  done: 'text-emerald-800 dark:text-emerald-300',
  failed: 'text-red-700 dark:text-red-300',
  working: 'text-amber-800 dark:text-amber-300',
} as const;

/** A collection's files: the drop zone, what each upload became, the progress, and each file with its state. */
export function CollectionFiles({
  detail,
  reload,
  onChanged,
  onError,
  readOnly = false,
}: {
  detail: CollectionDetail;
  reload: () => Promise<unknown>;
  onChanged: () => void;
  onError: (message: string | null) => void;
  /** Another person's shared collection: its files listed, nothing added or removed. */
  readOnly?: boolean;
}) {
  const { id } = detail;
  const [uploads, setUploads] = useState<{ name: string; state: string }[]>([]);
  const drop = useFileDrop((files) => void add(files));

  async function add(files: FileList | File[]) {
    onError(null);
    const list = [...files];
    setUploads(list.map((f) => ({ name: f.name, state: 'waiting' })));
    for (const [i, file] of list.entries()) {
      const mark = (state: string) => setUploads((u) => u.map((x, j) => (j === i ? { ...x, state } : x)));
      mark('sending');
      try {
        mark(uploadOutcome(await uploadToCollection(id, file)));
      } catch (err) {
        mark(`refused: ${(err as Error).message}`);
      }
      await reload();
    }
    onChanged();
  }

  async function remove(fileId: string) {
    try {
      await api.removeCollectionFile(id, fileId);
      await reload();
      onChanged();
    } catch (err) {
      onError((err as Error).message);
    }
  }

  return (
    <>
      <div className="space-y-1" hidden={readOnly}>
        <div
          data-testid="collection-drop-zone"
          data-dragging={drop.dragging || undefined}
          {...drop.handlers}
          className={`rounded-lg border-2 border-dashed p-4 text-center text-sm ${
            drop.dragging
              ? 'border-amber-500 bg-amber-50 dark:bg-amber-950/40'
              : 'border-stone-300 text-stone-700 dark:border-stone-700 dark:text-stone-300'
          }`}
        >
          <p>
            Drop files here, or{' '}
            <label className="cursor-pointer underline">
              choose files
              <input
                type="file"
                multiple
                accept={ACCEPT}
                data-testid="collection-upload"
                className="sr-only"
                onChange={(e) => {
                  if (e.target.files?.length) void add(e.target.files);
                  e.target.value = '';
                }}
              />
            </label>
          </p>
          <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">
            Text, Markdown, code, PDF, Word, spreadsheets; several at once, or a .zip of a folder
          </p>
        </div>
        {uploads.length > 0 && (
          <ul className="text-xs text-stone-600 dark:text-stone-400" data-testid="collection-uploads">
            {uploads.map((u, i) => (
              <li key={i}>
                {u.name}: {u.state}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="collection-progress">
        {progressLine(detail)}
      </p>
      <ul className="divide-y divide-stone-200 text-sm dark:divide-stone-800" data-testid="collection-files">
        {detail.fileList.map((f) => {
          const status = fileStatus(f, detail.search.byMeaning);
          return (
            <li key={f.id} className="flex items-center gap-2 py-1" data-testid="collection-file" data-status={f.status}>
              <span className="min-w-0 flex-1 truncate" title={f.name}>
                {f.name}
              </span>
              <span className="text-xs text-stone-600 dark:text-stone-400">{sizeInKb(f.size)}</span>
              <span className={`text-xs ${TONE[status.tone]}`} data-testid="file-status">
                {status.text}
              </span>
              {!readOnly && (
                <button type="button" className="text-xs underline" aria-label={`Remove ${f.name}`} onClick={() => void remove(f.id)}>
                  Remove
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
