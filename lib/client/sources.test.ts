import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SOURCES, sourcesOf } from './sources';

const search = (results: { url: string; title?: string }[]) => ({ name: 'web_search', ok: true, result: { query: 'q', results } });
const fetched = (url: string, title = '') => ({ name: 'fetch_url', ok: true, result: { url, title, text: '…' } });
const passages = (...ps: { n: number; file: string; fileId: string; lines?: number[] }[]) => ({
  name: 'search_documents',
  ok: true,
  result: {
    passages: ps.map((p) => ({
      n: p.n,
      file: p.file,
      collection_id: 'c1',
      file_id: p.fileId,
      lines: p.lines ?? [3, 5],
      place: 'lines 3–5',
    })),
  },
});

test('a page the turn read is a source, named by its title, with its host', () => {
  assert.deepEqual(sourcesOf([fetched('https://example.org/heat-pumps', 'Heat pumps explained')], 'They last 15 years.'), [
    { kind: 'page', href: 'https://example.org/heat-pumps', label: 'Heat pumps explained', detail: 'example.org' },
  ]);
  // Without a title, the host names it.
  assert.equal(sourcesOf([fetched('https://example.org/x')], '')[0].label, 'example.org');
});

test('a search result is a source only when the answer links it', () => {
  const calls = [
    search([
      { url: 'https://a.example/gold', title: 'Gold today' },
      { url: 'https://b.example/', title: 'Other' },
    ]),
  ];
  assert.deepEqual(
    sourcesOf(calls, 'According to **Gold today** (https://a.example/gold): 2,650 USD.').map((s) => s.href),
    ['https://a.example/gold'],
  );
  assert.deepEqual(sourcesOf(calls, 'Gold is at 2,650 USD.'), []);
});

test('only http(s) addresses become links: a result cannot put a javascript: link on the page', () => {
  const calls = [search([{ url: 'javascript:alert(1)', title: 'x' }]), fetched('data:text/html,hi', 'x'), fetched('not a url')];
  assert.deepEqual(sourcesOf(calls, 'javascript:alert(1) data:text/html,hi not a url'), []);
});

test('a page read twice, or read and linked, is one chip; failed calls give none', () => {
  const calls = [
    fetched('https://example.org/a', 'A'),
    fetched('https://example.org/a', 'A again'),
    search([{ url: 'https://example.org/a', title: 'A from search' }]),
    { name: 'fetch_url', ok: false, result: { url: 'https://failed.example/' } },
  ];
  assert.deepEqual(
    sourcesOf(calls, 'see https://example.org/a').map((s) => s.label),
    ['A'],
  );
});

test('documents: one chip a file for the passages the answer cites, or those found when it cites none', () => {
  const calls = [
    passages(
      { n: 1, file: 'manual.pdf', fileId: 'f1' },
      { n: 2, file: 'manual.pdf', fileId: 'f1', lines: [9, 9] },
      { n: 3, file: 'notes, 2024.txt', fileId: 'f2' },
    ),
  ];
  const cited = sourcesOf(calls, 'Hold it for ten seconds [2].');
  assert.deepEqual(cited, [
    { kind: 'document', href: '/knowledge/c1/files/f1?from=9&to=9', label: 'manual.pdf', detail: 'manual.pdf, lines 3–5' },
  ]);
  assert.deepEqual(
    sourcesOf(calls, 'Hold it for ten seconds.').map((s) => s.label),
    ['manual.pdf', 'notes, 2024.txt'],
  );
  // [12] is not [1].
  assert.deepEqual(
    sourcesOf(calls, 'See [12] and [3].').map((s) => s.label),
    ['notes, 2024.txt'],
  );
});

test('at most MAX_SOURCES chips', () => {
  const calls = Array.from({ length: 12 }, (_, i) => fetched(`https://example.org/${i}`, `Page ${i}`));
  assert.equal(sourcesOf(calls, '').length, MAX_SOURCES);
  assert.equal(MAX_SOURCES, 8);
});
