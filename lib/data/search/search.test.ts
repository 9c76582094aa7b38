import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withMeaning, type MeaningHit, type SearchHit } from './search';

const word = (messageId: string, createdAt = 10): SearchHit => ({
  kind: 'message',
  threadId: 't1',
  threadTitle: 'Trip',
  messageId,
  role: 'user',
  createdAt,
  snippet: `words of ${messageId}`,
  highlights: [[0, 5]],
});
const near = (id: string, over: Partial<MeaningHit> = {}): MeaningHit => ({
  id,
  threadId: 't1',
  title: 'Trip',
  role: 'user',
  content: `**Meaning** of ${id}, in a message long enough to be cut. `.repeat(8),
  createdAt: 10,
  similarity: 0.8,
  ...over,
});

test('a message found both ways is one hit that keeps its marked words and rises above one found only by its words', () => {
  const hits = withMeaning([word('a'), word('b')], [near('b')], { limit: 10 });
  assert.deepEqual(
    hits.map((h) => [h.messageId, h.byMeaning ?? false]),
    [
      ['b', false],
      ['a', false],
    ],
  );
  assert.deepEqual(hits[0].highlights, [[0, 5]]);
});

test('a message found only by meaning shows its opening as plain text, cut at a word, and is marked', () => {
  const [hit] = withMeaning([], [near('m')], { limit: 10 });
  assert.equal(hit.byMeaning, true);
  assert.deepEqual(hit.highlights, []);
  assert.match(hit.snippet, /^Meaning of m, in a message/);
  assert.ok(hit.snippet.length <= 161 && hit.snippet.endsWith('…'));
  assert.ok(!hit.snippet.includes('**'));
});

test('the filters hold for meaning hits: thread, role, from (inclusive) and to (exclusive); tool messages never show', () => {
  const all = [
    near('other-thread', { threadId: 't2' }),
    near('assistant', { role: 'assistant' }),
    near('early', { createdAt: 4 }),
    near('at-from', { createdAt: 5 }),
    near('at-to', { createdAt: 20 }),
    near('tool', { role: 'tool' }),
  ];
  const ids = (filters: Parameters<typeof withMeaning>[2]['filters']) =>
    withMeaning([], all, { filters, limit: 10 }).map((h) => h.messageId);
  assert.deepEqual(ids({ threadId: 't1', role: 'user', from: 5, to: 20 }), ['at-from']);
  assert.deepEqual(ids({ role: 'assistant' }), ['assistant']);
  assert.deepEqual(ids({ threadId: 't2' }), ['other-thread']);
  assert.ok(!ids({}).includes('tool'));
});

test('the fused list keeps the limit', () => {
  const hits = withMeaning([word('a'), word('b'), word('c')], [near('d'), near('e')], { limit: 3 });
  assert.equal(hits.length, 3);
  assert.deepEqual(
    withMeaning([word('a'), word('b')], [], { limit: 1 }).map((h) => h.messageId),
    ['a'],
  );
});
