import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkText, MAX_CHARS, OVERLAP_CHARS, TARGET_CHARS } from './chunk';

const lines = (text: string) => text.split('\n');

test('a heading begins a passage, its section stays with it, and each passage says its lines', () => {
  const doc = ['# Manual', '', 'Intro line.', '', '## Reset', '', 'Hold the button.', 'Wait.', '', '## Care', 'Dry cloth.'].join('\n');
  assert.deepEqual(chunkText(doc), [
    { text: '# Manual\n\nIntro line.', page: null, lineStart: 1, lineEnd: 3 },
    { text: '## Reset\n\nHold the button.\nWait.', page: null, lineStart: 5, lineEnd: 8 },
    { text: '## Care\nDry cloth.', page: null, lineStart: 10, lineEnd: 11 },
  ]);
});

test('line k of a passage is line lineStart + k of the file, blank lines kept inside it', () => {
  const doc = Array.from({ length: 200 }, (_, i) => (i % 5 === 4 ? '' : `line ${i + 1} with some words to fill it out a little`)).join(
    '\n',
  );
  const all = lines(doc);
  for (const c of chunkText(doc)) {
    lines(c.text).forEach((l, k) => assert.equal(l, all[c.lineStart - 1 + k], `line ${c.lineStart + k}`));
    assert.equal(c.lineEnd, c.lineStart + lines(c.text).length - 1);
  }
});

test('paragraphs pack to about TARGET_CHARS, never past MAX_CHARS, and the next passage begins with the end of the last', () => {
  const para = (i: number) => `Paragraph ${i}: ${'words that go on '.repeat(8)}end.`;
  const doc = Array.from({ length: 60 }, (_, i) => para(i)).join('\n\n');
  const chunks = chunkText(doc);
  assert.ok(chunks.length > 5);
  for (const c of chunks) assert.ok(c.text.length <= MAX_CHARS + 50, `${c.text.length} characters`);
  for (const c of chunks.slice(0, -1)) assert.ok(c.text.length >= TARGET_CHARS / 2, 'packed');
  for (let i = 1; i < chunks.length; i++) {
    const overlap = chunks[i - 1].lineEnd - chunks[i].lineStart + 1;
    assert.ok(overlap >= 1, `passage ${i} begins inside the one before`);
    assert.ok(chunks[i].text.startsWith(lines(chunks[i - 1].text).at(-1)!), 'with its last line');
  }
  const first = chunks[0].text;
  assert.ok(lines(first).at(-1)!.length < OVERLAP_CHARS);
});

test("a PDF's pages: a form feed begins the next, and no passage spans two", () => {
  const doc = 'page one text\nmore of page one\n\fpage two\n\n\fpage three starts\nand ends';
  assert.deepEqual(
    chunkText(doc, { paged: true }).map((c) => [c.page, c.lineStart, c.lineEnd, c.text]),
    [
      [1, 1, 2, 'page one text\nmore of page one'],
      [2, 3, 3, 'page two'],
      [3, 5, 6, 'page three starts\nand ends'],
    ],
  );
  assert.equal(chunkText(doc)[0].page, null, 'not paged: no pages');
});

test('a line longer than a passage is cut in slices that keep its number; nothing is lost; no text, no passages', () => {
  const long = 'x'.repeat(MAX_CHARS * 3);
  const chunks = chunkText(`before\n${long}\nafter`);
  assert.ok(chunks.filter((c) => c.text.includes('x')).length >= 3, 'sliced, not whole in one');
  assert.ok(chunks.every((c) => c.text.length <= MAX_CHARS + 10));
  assert.ok(chunks.some((c) => c.lineStart === 2 && c.lineEnd === 2));
  assert.equal(
    chunks.filter((c) => c.lineStart <= 2 && c.lineEnd >= 2).reduce((n, c) => n + (c.text.match(/x/g)?.length ?? 0), 0) >= long.length,
    true,
  );
  assert.deepEqual(chunkText(''), []);
  assert.deepEqual(chunkText('\n\n  \n'), []);
});
