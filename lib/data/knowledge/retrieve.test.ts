import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredChunk } from '@/db/rows';
import { fuse, retrieve, type RetrievalStore } from './retrieve';

test('reciprocal rank fusion: first in both beats first in one; ties keep the first ranking order', () => {
  assert.deepEqual(
    fuse([
      [1, 2, 3],
      [2, 4],
    ]).map((f) => f.id),
    [2, 1, 4, 3],
  );
  const [a, b] = fuse([[7], [8]]);
  assert.equal(a.id, 7);
  assert.equal(a.score, b.score);
  assert.equal(a.score, 1 / 61);
});

/** A store of passages held in memory, with the rankings a test gives. */
function storeOf(
  chunks: StoredChunk[],
  rankings: { every?: number[]; any?: number[]; near?: number[]; counts?: Record<string, number>; total?: number },
) {
  const asked: string[] = [];
  const store: RetrievalStore = {
    chunksMatching: ({ match }) => {
      // Written down as FTS5 would read it, for the assertions to read easily.
      asked.push(match.words.map((w) => `"${w}"`).join(match.anyWord ? ' OR ' : ' '));
      return match.anyWord ? (rankings.any ?? []) : (rankings.every ?? []);
    },
    chunksNear: () => (rankings.near ?? []).map((id) => ({ id, similarity: 0.9 })),
    chunksByIds: ({ ids }) =>
      chunks.filter((c) => ids.includes(c.id)).map((c) => ({ ...c, fileName: `${c.fileId}.md`, collectionId: 'c', sha256: c.fileId })),
    chunkAt: ({ fileId, seq }) => chunks.find((c) => c.fileId === fileId && c.seq === seq),
    termCounts: () => ({ total: rankings.total ?? 10_000, counts: new Map(Object.entries(rankings.counts ?? {})) }),
  };
  return { store, asked };
}
const chunk = (id: number, fileId: string, seq: number, text: string, lineStart: number): StoredChunk => ({
  id,
  fileId,
  seq,
  text,
  page: null,
  lineStart,
  lineEnd: lineStart + text.split('\n').length - 1,
});
const embedder = { model: 'm', client: { embed: async (texts: readonly string[]) => texts.map(() => new Float32Array([1, 0])) } };

test('a passage with every word comes before one near in meaning; each says what found it; numbered from 1', async () => {
  const long = (s: string) => `${s} ${'filler words '.repeat(40)}`;
  const chunks = [
    chunk(1, 'a', 0, long('serial W137'), 1),
    chunk(2, 'b', 0, long('close in meaning'), 1),
    chunk(3, 'c', 0, long('other'), 1),
  ];
  const { store } = storeOf(chunks, { every: [1], any: [3, 1], near: [2, 3] });
  const r = await retrieve({ store, query: 'serial W137', collectionIds: ['c'], embedder });
  assert.deepEqual(
    r.passages.map((p) => [p.n, p.chunkId, p.foundBy]),
    [
      [1, 1, ['words']],
      [2, 3, ['words', 'meaning']],
      [3, 2, ['meaning']],
    ],
  );
  assert.equal(r.byMeaning, true);
});

test('words most passages hold are left out of the any-word ranking, unless they are all there is', async () => {
  const { store, asked } = storeOf([], { counts: { how: 9000, do: 8000, reset: 3 } });
  await retrieve({ store, query: 'how do reset', collectionIds: ['c'] });
  assert.deepEqual(asked, ['"how" "do" "reset"', '"reset"']);
  asked.length = 0;
  await retrieve({ store, query: 'how do', collectionIds: ['c'] });
  assert.deepEqual(asked, ['"how" "do"', '"how" OR "do"']);
});

test('in a small collection no word is too common: the words that match are kept (issue 46)', async () => {
  // Two short files, two passages: "warranty", "heat" and "pump" are in one of the two (half).
  const { store, asked } = storeOf([], { total: 2, counts: { the: 2, is: 2, warranty: 1, heat: 1, pump: 1 } });
  await retrieve({ store, query: 'How long is the warranty on the heat pump?', collectionIds: ['c'] });
  assert.deepEqual(asked, [
    '"how" "long" "is" "the" "warranty" "on" "heat" "pump"',
    '"how" OR "long" OR "is" OR "the" OR "warranty" OR "on" OR "heat" OR "pump"',
  ]);
});

test('in a large collection, when no word kept is in any passage, the least common word that is comes back', async () => {
  const { store, asked } = storeOf([], { counts: { how: 9000, the: 9900, warranty: 2500, pump: 4000 } });
  await retrieve({ store, query: 'how long the warranty pump', collectionIds: ['c'] });
  assert.equal(asked[1], '"long" OR "warranty"');
});

test('a short passage is read with its neighbours on the page, joined by line numbers; repeats of a file in two collections are left out', async () => {
  const chunks = [
    chunk(1, 'a', 0, '## Part 1\nalpha', 1),
    chunk(2, 'a', 1, 'alpha\n\n## Reset\nhold it', 2),
    chunk(3, 'a', 2, '## Care\ndry', 7),
    { ...chunk(4, 'a', 1, 'alpha\n\n## Reset\nhold it', 2), fileId: 'a2' },
  ];
  const { store } = storeOf(chunks, { every: [2, 4] });
  const r = await retrieve({ store, query: 'reset', collectionIds: ['c'] });
  assert.equal(r.passages.length, 1, 'the same text twice is one passage');
  assert.deepEqual([r.passages[0].lineStart, r.passages[0].lineEnd], [1, 8]);
  assert.equal(r.passages[0].text, '## Part 1\nalpha\n\n## Reset\nhold it\n\n## Care\ndry');
});

test('an embeddings server that fails: by words, and the note says why; no collection: nothing', async () => {
  const failing = { model: 'm', client: { embed: async () => Promise.reject(new Error('connection refused')) } };
  const { store } = storeOf([chunk(1, 'a', 0, 'x '.repeat(300), 1)], { every: [1] });
  const r = await retrieve({ store, query: 'x', collectionIds: ['c'], embedder: failing });
  assert.equal(r.byMeaning, false);
  assert.match(r.note!, /connection refused/);
  assert.equal(r.passages.length, 1);
  assert.deepEqual((await retrieve({ store, query: 'x', collectionIds: [] })).passages, []);
});
