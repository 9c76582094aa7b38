import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fold, sameMatch, searchTerms, snippetOf, wordMatch } from './query';

test('a query is its folded words, each once, the last also a prefix from four letters; nothing to search is null', () => {
  assert.deepEqual(wordMatch('Sourdough STARTER sourdough'), { words: ['sourdough', 'starter'], anyWord: false, prefix: true });
  assert.deepEqual(wordMatch('photo sou'), { words: ['photo', 'sou'], anyWord: false, prefix: false });
  assert.deepEqual(wordMatch('photo soup', { prefix: false }), { words: ['photo', 'soup'], anyWord: false, prefix: false });
  assert.deepEqual(wordMatch('pasta tomato', { anyWord: true }), { words: ['pasta', 'tomato'], anyWord: true, prefix: true });
  assert.deepEqual(wordMatch('pasta', { anyWord: true }), { words: ['pasta'], anyWord: false, prefix: true }, 'any of one word is that word');
  assert.ok(sameMatch(wordMatch('pasta', { anyWord: true }), wordMatch('pasta')));
  assert.ok(!sameMatch(wordMatch('pasta'), wordMatch('pasta', { prefix: false })));
  for (const nothing of ['', '   ', '"', '()', '---', '...?!', '""""'])
    assert.equal(wordMatch(nothing), null, JSON.stringify(nothing));
  assert.equal(searchTerms('one two three four five six seven eight nine ten eleven twelve thirteen').words.length, 12);
});

test('a snippet is cut around the first match, with every match in it highlighted', () => {
  const text = `${'Earlier we talked about many things. '.repeat(10)}Then the Sourdough starter bubbled; sourdough needs patience.`;
  const { snippet, highlights } = snippetOf(text, searchTerms('sourdough'));
  assert.ok(snippet.startsWith('…'), snippet);
  assert.ok(snippet.length <= 205, String(snippet.length));
  assert.deepEqual(
    highlights.map(([s, e]) => snippet.slice(s, e)),
    ['Sourdough', 'sourdough'],
  );
});

test('highlights follow folding and the prefix of the last word', () => {
  const { snippet, highlights } = snippetOf('Le café était fermé, les cafés voisins aussi.', searchTerms('CAFE ferm'));
  assert.deepEqual(
    highlights.map(([s, e]) => snippet.slice(s, e)),
    ['café', 'fermé'],
  );
  assert.equal(fold('Ærøskøbing ÉTÉ'), 'ærøskøbing ete');
});

test('a short text is shown whole; no match shows its start', () => {
  assert.deepEqual(snippetOf('Short title', searchTerms('title')), { snippet: 'Short title', highlights: [[6, 11]] });
  assert.equal(snippetOf('x'.repeat(500), searchTerms('nothing')).snippet.length, 201);
});
