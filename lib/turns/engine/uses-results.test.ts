import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evidenceIn, evidenceUsed, MIN_EVIDENCE } from './uses-results';

test('uses results: figures of two or more digits, compared without thousands separators or trailing zeros', () => {
  assert.deepEqual([...evidenceIn('£1,250.50 and 7 figs, 18.40 or 2026')], ['1250.5', '18.4', '2026']);
  assert.deepEqual([...evidenceIn('1250.5')], [...evidenceIn('1,250.50')], 'the same figure written two ways');
  assert.deepEqual([...evidenceIn('3 4 5')], [], 'single digits are too common to count');
});

test('uses results: rare words are six letters or more and not common; CJK counts character pairs', () => {
  assert.deepEqual([...evidenceIn('The Rosslare ferry should leave')], ['rosslare'], 'short and common words are not evidence');
  assert.deepEqual([...evidenceIn('Москва Kraków')], ['москва', 'kraków'], 'any alphabetic script');
  assert.deepEqual([...evidenceIn('東京駅')], ['東京', '京駅'], 'Chinese and Japanese by character pairs');
});

test('uses results: a draft that carries two pieces of the results uses them; one, or the question’s own words, is not enough', () => {
  const results = ['web_search: {"results":[{"title":"Tideway tunnel opening","snippet":"Opened on 14 September, cost 4,200 million"}]}'];
  assert.equal(MIN_EVIDENCE, 2);
  assert.deepEqual(evidenceUsed('It opened on 14 September and cost £4.2bn (4,200 million).', results, 'When did it open?'), [
    '14',
    '4200',
    'opened',
    'september',
    'million',
  ]);
  assert.deepEqual(evidenceUsed('It was in September.', results, 'When did it open?'), [], 'one piece is not enough');
  assert.deepEqual(
    evidenceUsed('The Tideway tunnel opening was in September.', results, 'When was the Tideway tunnel opening?'),
    [],
    'words the question brought do not count',
  );
});

test('uses results: a result’s JSON keys and a failed call’s error are not evidence', () => {
  const results = [
    'web_search failed: timeout reaching searxng.example after 10000 ms',
    'fetch_url: {"snippet":"","results":[],"content":""}',
  ];
  assert.deepEqual(evidenceUsed('The snippet results had content: searxng.example timed out after 10000 ms.', results, 'q'), []);
});

test('uses results: a calculation and a planned table query count like tool results', () => {
  assert.deepEqual(
    evidenceUsed('That comes to 1,237 in total (23 × 47 + 156).', ['calculation: 23 * 47 + 156 = 1237'], 'What is 23 * 47 + 156?'),
    [],
  );
  assert.deepEqual(
    evidenceUsed(
      'You spent 1,234.56 on groceries across 42 receipts.',
      ['query_table SELECT sum(amount), count(*) FROM data over statement.csv: 1234.56 | 42'],
      'How much did I spend on groceries?',
    ),
    ['1234.56', '42'],
  );
});
