import assert from 'node:assert/strict';
import { test } from 'node:test';
import { factRefusal, recallFacts, renderFacts } from './facts';

test('facts are refused with a reason when empty, long, secret or repeated', () => {
  assert.equal(factRefusal('I am vegetarian.', []), null);
  assert.match(factRefusal('   ', [])!, /empty/);
  assert.match(factRefusal('x'.repeat(301), [])!, /at most 300/);
  assert.match(factRefusal('My password is hunter2', [])!, /password, key or token/);
  assert.match(factRefusal('The key is sk_live_4eC39HqLyjWDarjtT1zdp7dc', [])!, /password, key or token/);
  assert.match(factRefusal('i am  Vegetarian.', ['I am vegetarian.'])!, /already kept/);
});

test('keys with a well-known prefix are refused even in one case; ordinary words with those letters are not', () => {
  for (const key of [
    'my key is sk-abcdefghijklmnopqrstuvwxyz123456',
    'use sk-ant-api03-abcdefghijklmnop for work',
    'github ghp_abcdefghijklmnopqrstuvwxyz0123',
    'slack xoxb-1234567890-abcdef',
    'aws AKIAIOSFODNN7EXAMPLE',
    'hf_abcdefghijklmnopqrstuvwx is my token for models',
  ]) {
    assert.match(factRefusal(key, []) ?? 'kept', /password, key or token/, key);
  }
  for (const fine of ['I like sk-iing in winter', 'I ask-questions a lot', 'My github name is ghp', 'I work at AKIA Ltd']) {
    assert.equal(factRefusal(fine, []), null, fine);
  }
});

test('recall picks facts sharing words with the question, most shared first', () => {
  const facts = [
    { text: 'Drinks coffee black', updatedAt: 1 },
    { text: 'Lives in Lyon, France', updatedAt: 2 },
    { text: 'Is vegetarian and cooks on weekends', updatedAt: 3 },
  ];
  assert.deepEqual(
    recallFacts(facts, 'What can I cook this weekend? Something vegetarian').map((f) => f.text),
    ['Is vegetarian and cooks on weekends'],
  );
  assert.deepEqual(
    recallFacts(facts, 'Weather in Lyon?').map((f) => f.text),
    ['Lives in Lyon, France'],
  );
  assert.deepEqual(recallFacts(facts, 'hello'), []);
  assert.match(renderFacts(facts.slice(0, 1))!, /- Drinks coffee black/);
  assert.equal(renderFacts([]), null);
});

test('at most 8 facts are recalled into a turn (the README figure), the most relevant first', () => {
  const facts = Array.from({ length: 12 }, (_, i) => ({ text: `The user likes tea number ${i}.`, updatedAt: i }));
  const recalled = recallFacts(facts, 'What tea does the user like?');
  assert.equal(recalled.length, 8);
  assert.deepEqual(
    recalled.map((f) => f.updatedAt),
    [11, 10, 9, 8, 7, 6, 5, 4],
    'equally relevant: the newest',
  );
});
