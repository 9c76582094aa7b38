import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wordMatch } from '@/lib/data/search/query';
import { fts5Match } from './fts';

const fts = (query: string, options?: Parameters<typeof wordMatch>[1]) => fts5Match(wordMatch(query, options)!);

test('every word is quoted, the last also a prefix; operators, quotes and brackets are only text', () => {
  assert.equal(fts('sourdough starter'), '"sourdough" "starter"*');
  assert.equal(fts('NOT this OR that'), '"not" "this" "or" "that"*');
  assert.equal(fts('say "hello" (again) -nowhere'), '"say" "hello" "again" "nowhere"*');
  assert.equal(fts('col:umn NEAR(a b) x^2 *'), '"col" "umn" "near" "a" "b" "x^2"');
  assert.equal(fts('c++ and $5'), '"c++" "and" "$5"', 'a short last word is a whole word, not a prefix');
  assert.equal(fts('photo sou'), '"photo" "sou"');
  assert.equal(fts('photo soup'), '"photo" "soup"*');
  assert.equal(fts('photo soup', { prefix: false }), '"photo" "soup"');
  assert.equal(fts('a'), '"a"');
  assert.equal(fts('rain rain RAIN'), '"rain"*', 'repeats count once, case folds');
  assert.equal(fts('Café crème'), '"cafe" "creme"*', 'accents fold as the index folds them');
  assert.equal(fts('東京 ラーメン'), '"東京" "ラーメン"*');
  assert.equal(fts('🙂 okay'), '"🙂" "okay"*');
  assert.equal(fts('pasta tomato', { anyWord: true }), '"pasta" OR "tomato"*');
  assert.equal(fts5Match({ words: ['say "hi"'], anyWord: false, prefix: false }), '"say ""hi"""', 'a quote inside a word is doubled');
});
