'use client';

import Link from 'next/link';
import { useCallback, useEffect, useState } from 'react';
import { api, uploadToCollection } from '@/lib/client/api';
import type { CollectionDetail, CollectionView, PassageView } from '@/lib/contract/responses';
import { useFileDrop } from '@/components/chat/hooks/useFileDrop';
import { placeOf } from '@/lib/knowledge/place';

/**
 * Knowledge collections: documents asked about in any conversation. Make a collection, add
 * files (several at once, or a zip of a folder), watch them index, try a search, and choose
 * whether every conversation uses it (otherwise a thread picks it in its header).
 */

const inputClass = 'rounded-md border border-stone-300 bg-white px-2 py-1 text-sm dark:border-stone-700 dark:bg-stone-900';
const buttonClass =
  'rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800';

const ACCEPT = '.txt,.md,.markdown,.rst,.csv,.tsv,.json,.xml,.html,.log,.pdf,.docx,.xlsx,.ods,.zip,text/*,application/pdf,application/zip';

type SearchMode = { byMeaning: boolean; embeddingsError: string | null };

/** "1 passage", "2 passages", "1,204 passages". */
const count = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

export function KnowledgePage() {
  const [collections, setCollections] = useState<CollectionView[] | null>(null);
  const [mode, setMode] = useState<SearchMode | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const r = await api.listCollections();
      setCollections(r.collections);
      setMode(r.search);
      setSelected((s) => s ?? r.collections[0]?.id ?? null);
    } catch (err) {
      setError((err as Error).message);
    }
  }, []);
  useEffect(() => void reload(), [reload]);

  async function create() {
    setError(null);
    try {
      const c = await api.createCollection(name);
      setName('');
      setSelected(c.id);
      await reload();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <main className="mx-auto max-w-5xl space-y-4 p-4">
      <div className="flex items-baseline gap-3">
        <h1 className="text-xl font-semibold">Knowledge</h1>
        <Link href="/" className="text-sm underline">
          Back to chats
        </Link>
      </div>
      <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="knowledge-mode">
        {mode?.byMeaning
          ? mode.embeddingsError
            ? `Search by words for now: the embeddings server fails (${mode.embeddingsError}).`
            : 'Passages are found by their words and by meaning.'
          : 'Passages are found by their words. Set an embeddings server in Settings to find them by meaning too.'}{' '}
        A conversation uses a collection when you choose it in its header, or every conversation when you say so here.
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
        <aside className="space-y-2">
          <form
            className="flex gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              void create();
            }}
          >
            <input
              data-testid="new-collection-name"
              aria-label="New collection name"
              placeholder="New collection"
              className={`${inputClass} min-w-0 flex-1`}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <button type="submit" data-testid="create-collection" className={buttonClass} disabled={!name.trim()}>
              Create
            </button>
          </form>
          {collections?.length === 0 && <p className="text-sm text-stone-600 dark:text-stone-400">No collections yet.</p>}
          <ul className="space-y-1" data-testid="collections">
            {collections?.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  data-testid="collection"
                  aria-current={c.id === selected}
                  onClick={() => setSelected(c.id)}
                  className={`w-full rounded-md px-2 py-1 text-left text-sm ${c.id === selected ? 'bg-stone-200 dark:bg-stone-800' : 'hover:bg-stone-100 dark:hover:bg-stone-900'}`}
                >
                  <span className="block truncate font-medium">{c.name}</span>
                  <span className="text-xs text-stone-600 dark:text-stone-400">
                    {c.files} file{c.files === 1 ? '' : 's'}
                    {c.files > c.ready + c.failed ? ` · indexing ${c.ready}/${c.files}` : ''}
                    {c.everyThread ? ' · every conversation' : ''}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </aside>
        {selected && (
          <CollectionPanel
            key={selected}
            id={selected}
            onChanged={() => void reload()}
            onDeleted={() => {
              setSelected(null);
              void reload();
            }}
          />
        )}
      </div>
    </main>
  );
}

function CollectionPanel({ id, onChanged, onDeleted }: { id: string; onChanged: () => void; onDeleted: () => void }) {
  const [detail, setDetail] = useState<CollectionDetail | null>(null);
  const [rename, setRename] = useState<string | null>(null);
  const [uploads, setUploads] = useState<{ name: string; state: string }[]>([]);
  const [error, setError] = useState<string | null>(null);
  /** Deleting is asked in the panel: the question is shown until it is answered. */
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const drop = useFileDrop((files) => void add(files));

  const load = useCallback(
    () =>
      api
        .getCollection(id)
        .then(setDetail)
        .catch((err: Error) => setError(err.message)),
    [id],
  );
  useEffect(() => void load(), [load]);
  // While files index, their progress is asked for again each second.
  const busy = detail?.fileList.some((f) => f.status === 'queued' || f.status === 'indexing') ?? false;
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void load().then(onChanged), 1000);
    return () => clearInterval(timer);
  }, [busy, load, onChanged]);

  async function add(files: FileList | File[]) {
    setError(null);
    const list = [...files];
    setUploads(list.map((f) => ({ name: f.name, state: 'waiting' })));
    for (const [i, file] of list.entries()) {
      const mark = (state: string) => setUploads((u) => u.map((x, j) => (j === i ? { ...x, state } : x)));
      mark('sending');
      try {
        const r = await uploadToCollection(id, file);
        mark(r.skipped.length ? `added ${r.files.length}; skipped ${r.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : 'added');
      } catch (err) {
        mark(`refused: ${(err as Error).message}`);
      }
      await load();
    }
    onChanged();
  }

  async function save(patch: { name?: string; everyThread?: boolean }) {
    try {
      await api.patchCollection(id, patch);
      setRename(null);
      await load();
      onChanged();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  if (!detail) return <section>{error ? <p role="alert">{error}</p> : <p>Loading…</p>}</section>;
  return (
    <section className="space-y-4 rounded-xl border border-stone-200 p-4 dark:border-stone-800" data-testid="collection-panel">
      <div className="flex flex-wrap items-center gap-2">
        {rename === null ? (
          <h2 className="text-lg font-semibold" data-testid="collection-name">
            {detail.name}
          </h2>
        ) : (
          <input
            aria-label="Collection name"
            className={inputClass}
            value={rename}
            onChange={(e) => setRename(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && void save({ name: rename })}
          />
        )}
        <button
          type="button"
          className={buttonClass}
          onClick={() => (rename === null ? setRename(detail.name) : void save({ name: rename }))}
        >
          {rename === null ? 'Rename' : 'Save'}
        </button>
        <label className="flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            data-testid="every-thread"
            checked={detail.everyThread}
            onChange={(e) => void save({ everyThread: e.target.checked })}
          />
          Use in every conversation
        </label>
        <button
          type="button"
          data-testid="delete-collection"
          className={`${buttonClass} ml-auto text-red-700 dark:text-red-300`}
          onClick={() => setConfirmingDelete(true)}
        >
          Delete
        </button>
      </div>
      {confirmingDelete && (
        <div
          role="group"
          aria-label="Delete this collection?"
          data-testid="collection-delete-question"
          className="flex flex-wrap items-center gap-2 rounded-md border border-red-300 bg-red-50 p-2 text-sm dark:border-red-900 dark:bg-red-950"
        >
          <span>
            Delete the collection “{detail.name}” and its {count(detail.files, 'file')}? Conversations keep their answers.
          </span>
          <button
            type="button"
            data-testid="confirm-delete-collection"
            className={`${buttonClass} text-red-700 dark:text-red-300`}
            onClick={async () => {
              try {
                await api.deleteCollection(id);
                onDeleted();
              } catch (err) {
                setConfirmingDelete(false);
                setError((err as Error).message);
              }
            }}
          >
            Delete
          </button>
          <button type="button" autoFocus className={buttonClass} onClick={() => setConfirmingDelete(false)}>
            Keep
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="space-y-1">
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
        {count(detail.files, 'file')} · {detail.ready} indexed
        {detail.failed ? ` · ${detail.failed} could not be read` : ''} · {count(detail.chunks, 'passage')}
        {detail.search.byMeaning ? ` · ${detail.embedded.toLocaleString('en')} with vectors` : ''}
      </p>
      <ul className="divide-y divide-stone-200 text-sm dark:divide-stone-800" data-testid="collection-files">
        {detail.fileList.map((f) => (
          <li key={f.id} className="flex items-center gap-2 py-1" data-testid="collection-file" data-status={f.status}>
            <span className="min-w-0 flex-1 truncate" title={f.name}>
              {f.name}
            </span>
            <span className="text-xs text-stone-600 dark:text-stone-400">{(f.size / 1024).toFixed(f.size < 10240 ? 1 : 0)} KB</span>
            <FileStatus file={f} byMeaning={detail.search.byMeaning} />
            <button
              type="button"
              className="text-xs underline"
              aria-label={`Remove ${f.name}`}
              onClick={async () => {
                try {
                  await api.removeCollectionFile(id, f.id);
                  await load();
                  onChanged();
                } catch (err) {
                  setError((err as Error).message);
                }
              }}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <TrySearch id={id} />
    </section>
  );
}

function FileStatus({ file, byMeaning }: { file: CollectionDetail['fileList'][number]; byMeaning: boolean }) {
  const text =
    file.status === 'queued'
      ? 'waiting'
      : file.status === 'indexing'
        ? byMeaning && file.chunks
          ? `indexing ${Math.floor((100 * file.embedded) / file.chunks)}%`
          : 'indexing'
        : file.status === 'ready'
          ? `ready · ${count(file.chunks, 'passage')}`
          : `not indexed: ${file.error ?? 'unreadable'}`;
  const tone =
    file.status === 'ready'
      ? 'text-emerald-800 dark:text-emerald-300'
      : file.status === 'error'
        ? 'text-red-700 dark:text-red-300'
        : 'text-amber-800 dark:text-amber-300';
  return (
    <span className={`text-xs ${tone}`} data-testid="file-status">
      {text}
    </span>
  );
}

/** A search over the collection as search_documents would make it, each passage opening in the viewer. */
function TrySearch({ id }: { id: string }) {
  const [q, setQ] = useState('');
  const [result, setResult] = useState<{ passages: PassageView[]; byMeaning: boolean; note?: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="space-y-2">
      <form
        className="flex gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          api
            .searchCollection(id, q)
            .then(setResult)
            .catch((err: Error) => setError(err.message));
        }}
      >
        <input
          data-testid="collection-search"
          aria-label="Search this collection"
          placeholder="Try a question"
          className={`${inputClass} min-w-0 flex-1`}
          value={q}
          onChange={(e) => setQ(e.target.value)}
        />
        <button type="submit" className={buttonClass} disabled={!q.trim()}>
          Search
        </button>
      </form>
      {error && <p className="text-sm text-red-700 dark:text-red-300">{error}</p>}
      {result && (
        <ol className="space-y-2 text-sm" data-testid="collection-passages">
          {result.passages.length === 0 && <li>Nothing found.</li>}
          {result.passages.map((p) => (
            <li key={p.chunkId} className="rounded-md border border-stone-200 p-2 dark:border-stone-800">
              <a
                className="text-xs underline"
                href={`/knowledge/${encodeURIComponent(p.collectionId)}/files/${encodeURIComponent(p.fileId)}?from=${p.lineStart}&to=${p.lineEnd}`}
              >
                [{p.n}] {p.fileName}, {placeOf(p)}
              </a>
              <span className="ml-2 text-xs text-stone-500">found by {p.foundBy.join(' and ')}</span>
              <p className="mt-1 line-clamp-4 whitespace-pre-wrap text-stone-700 dark:text-stone-300">{p.text}</p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
