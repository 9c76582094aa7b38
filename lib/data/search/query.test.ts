import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fold, matchExpression, searchTerms, snippetOf } from './query';

test('every word is quoted, the last also a prefix; operators, quotes and brackets are only text', () => {
  assert.equal(matchExpression('sourdough starter'), '"sourdough" "starter"*');
  assert.equal(matchExpression('NOT this OR that'), '"not" "this" "or" "that"*');
  assert.equal(matchExpression('say "hello" (again) -nowhere'), '"say" "hello" "again" "nowhere"*');
  assert.equal(matchExpression('col:umn NEAR(a b) x^2 *'), '"col" "umn" "near" "a" "b" "x^2"');
  assert.equal(matchExpression('c++ and $5'), '"c++" "and" "$5"', 'a short last word is a whole word, not a prefix');
  assert.equal(matchExpression('photo sou'), '"photo" "sou"');
  assert.equal(matchExpression('photo soup'), '"photo" "soup"*');
  assert.equal(matchExpression('a'), '"a"');
  assert.equal(matchExpression('rain rain RAIN'), '"rain"*', 'repeats count once, case folds');
  assert.equal(matchExpression('Café crème'), '"cafe" "creme"*', 'accents fold as the index folds them');
  assert.equal(matchExpression('東京 ラーメン'), '"東京" "ラーメン"*');
  assert.equal(matchExpression('🙂 okay'), '"🙂" "okay"*');
  assert.equal(matchExpression('pasta tomato', { anyWord: true }), '"pasta" OR "tomato"*');
  for (const nothing of ['', '   ', '"', '()', '---', '...?!', '""""'])
    assert.equal(matchExpression(nothing), null, JSON.stringify(nothing));
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
