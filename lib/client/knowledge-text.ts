import type { CollectionDetail, CollectionView } from '@/lib/contract/responses';

/**
 * What the Knowledge page says about collections and their files: the page only lays it out,
 * these decide the words (and are tested beside them).
 */

/** "1 passage", "2 passages", "1,204 passages". */
export const count = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/** How passages are found, and what a failing embeddings server means for now. */
export function searchModeText(mode: { byMeaning: boolean; embeddingsError: string | null } | null): string {
  if (!mode?.byMeaning) return 'Passages are found by their words. Set an embeddings server in Settings to find them by meaning too.';
  if (mode.embeddingsError) return `Search by words for now: the embeddings server fails (${mode.embeddingsError}).`;
  return 'Passages are found by their words and by meaning.';
}

/** A collection's line in the list: its files, how far indexing is, whether every conversation uses it. */
export function collectionLine(c: Pick<CollectionView, 'files' | 'ready' | 'failed' | 'everyThread' | 'shared' | 'sharedBy'>): string {
  return [
    count(c.files, 'file'),
    ...(c.files > c.ready + c.failed ? [`indexing ${c.ready}/${c.files}`] : []),
    ...(c.sharedBy ? [`shared by ${c.sharedBy}`] : c.everyThread ? ['every conversation'] : []),
    ...(c.shared && !c.sharedBy ? ['shared with everyone'] : []),
  ].join(' · ');
}

/** A collection's progress: files, indexed, unreadable, passages, and with vectors when searched by meaning. */
export function progressLine(d: Pick<CollectionDetail, 'files' | 'ready' | 'failed' | 'chunks' | 'embedded' | 'search'>): string {
  return [
    count(d.files, 'file'),
    `${d.ready} indexed`,
    ...(d.failed ? [`${d.failed} could not be read`] : []),
    count(d.chunks, 'passage'),
    ...(d.search.byMeaning ? [`${d.embedded.toLocaleString('en')} with vectors`] : []),
  ].join(' · ');
}

type CollectionFile = CollectionDetail['fileList'][number];

/** Where one file is: waiting, indexing (with how much is embedded), ready, or why it is not. */
export function fileStatus(
  file: Pick<CollectionFile, 'status' | 'chunks' | 'embedded' | 'error'>,
  byMeaning: boolean,
): { text: string; tone: 'done' | 'failed' | 'working' } {
  switch (file.status) {
    case 'queued':
      return { text: 'waiting', tone: 'working' };
    case 'indexing':
      return {
        text: byMeaning && file.chunks ? `indexing ${Math.floor((100 * file.embedded) / file.chunks)}%` : 'indexing',
        tone: 'working',
      };
    case 'ready':
      return { text: `ready · ${count(file.chunks, 'passage')}`, tone: 'done' };
    default:
      return { text: `not indexed: ${file.error ?? 'unreadable'}`, tone: 'failed' };
  }
}

/** A file's size as the list shows it: one decimal under 10 KB. */
export const sizeInKb = (bytes: number) => `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KB`;

/** What happened to each file of an upload to a collection. */
export function uploadOutcome(r: { files: unknown[]; skipped: { name: string; reason: string }[] }): string {
  return r.skipped.length ? `added ${r.files.length}; skipped ${r.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}` : 'added';
}
