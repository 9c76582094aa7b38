import assert from 'node:assert/strict';
import { test } from 'node:test';
import { citationsOf, linkCitations } from './citations';

const call = (passages: unknown[], ok = true) => ({ name: 'search_documents', ok, result: { passages } });
const p = (n: number, file: string, lines: [number, number]) => ({
  n,
  file,
  place: `lines ${lines[0]}–${lines[1]}`,
  collection_id: 'c1',
  file_id: `f-${file}`,
  lines,
});

test('each cited number becomes a link to its passage, lines and all', () => {
  const citations = citationsOf([call([p(1, 'lamp.md', [10, 14]), p(2, 'notes.md', [3, 3])])]);
  assert.equal(
    linkCitations('Hold it for ten seconds [1], then wait [2].', citations),
    'Hold it for ten seconds [&#91;1&#93;](/knowledge/c1/files/f-lamp.md?from=10&to=14 "lamp.md, lines 10–14"), then wait [&#91;2&#93;](/knowledge/c1/files/f-notes.md?from=3&to=3 "notes.md, lines 3–3").',
  );
});

test('a number no passage has, a link, a footnote and code stay as written', () => {
  const citations = citationsOf([call([p(1, 'a.md', [1, 2])])]);
  const text = 'Not [3]; a [1](http://x) link; a footnote [1]: here; `code [1]`\n```\n[1]\n```';
  assert.equal(linkCitations(text, citations), text);
});

test('a later search numbers win; failed calls and other tools give none', () => {
  const citations = citationsOf([
    call([p(1, 'old.md', [1, 1])]),
    { name: 'web_search', ok: true, result: { passages: [p(2, 'web', [1, 1])] } },
    call([p(3, 'failed.md', [1, 1])], false),
    call([p(1, 'new.md', [5, 6])]),
  ]);
  assert.deepEqual([...citations.keys()], [1]);
  assert.match(citations.get(1)!.href, /f-new\.md/);
});

test('a title cannot close its quotes', () => {
  const citations = citationsOf([call([p(1, 'say "hi".md', [1, 1])])]);
  assert.match(linkCitations('[1]', citations), /"say hi\.md, lines 1–1"\)$/);
});
