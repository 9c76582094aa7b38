import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Retrieval } from '@/lib/data/knowledge/retrieve';
import { mergeRetrievals } from './shared-collections';

const passage = (collectionId: string, n: number) => ({
  n,
  chunkId: n,
  fileId: `${collectionId}-f`,
  fileName: `${collectionId}.txt`,
  collectionId,
  page: null,
  lineStart: n,
  lineEnd: n,
  text: `${collectionId} ${n}`,
  foundBy: ['words' as const],
});
const found = (id: string, count: number, byMeaning = true, note?: string): Retrieval => ({
  passages: Array.from({ length: count }, (_, i) => passage(id, i + 1)),
  byMeaning,
  ...(note ? { note } : {}),
});

test('passages of several libraries are taken in turn, best first from each, and numbered again', () => {
  const merged = mergeRetrievals([found('mine', 5), found('shared', 2)]);
  assert.deepEqual(
    merged.passages.map((p) => p.text),
    ['mine 1', 'shared 1', 'mine 2', 'shared 2', 'mine 3', 'mine 4'],
  );
  assert.deepEqual(
    merged.passages.map((p) => p.n),
    [1, 2, 3, 4, 5, 6],
  );
  assert.equal(merged.byMeaning, true);
});

test('by meaning only when every search was; each note said once; one search is passed through as it is', () => {
  const merged = mergeRetrievals([found('a', 1, true, 'No embeddings.'), found('b', 1, false, 'No embeddings.')]);
  assert.equal(merged.byMeaning, false);
  assert.equal(merged.note, 'No embeddings.');
  const one = found('a', 9);
  assert.equal(mergeRetrievals([one]), one);
  assert.deepEqual(mergeRetrievals([]).passages, []);
});
