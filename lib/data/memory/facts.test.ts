import assert from 'node:assert/strict';
import { test } from 'node:test';
import { factRefusal, factsFor, factsUsed, recallFacts, renderFacts, STANDING_CHARS, STANDING_COUNT } from './facts';

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

test('at most 8 facts are recalled into a turn (the manual figure), the most relevant first', () => {
  const facts = Array.from({ length: 12 }, (_, i) => ({ text: `The user likes tea number ${i}.`, updatedAt: i }));
  const recalled = recallFacts(facts, 'What tea does the user like?');
  assert.equal(recalled.length, 8);
  assert.deepEqual(
    recalled.map((f) => f.updatedAt),
    [11, 10, 9, 8, 7, 6, 5, 4],
    'equally relevant: the newest',
  );
});

test('standing facts: the oldest kept, up to a dozen and 1,500 characters, in the order they were kept; the rest recalled by their words', () => {
  const fact = (i: number, text: string) => ({ id: `f${String(i).padStart(2, '0')}`, text, createdAt: i, updatedAt: 100 - i });
  const many = Array.from({ length: STANDING_COUNT + 3 }, (_, i) => fact(i, `The user keeps hobby number${i}`));
  many.push(fact(50, 'The user lives in Bergen'));
  const { standing, recalled } = factsFor([...many].reverse(), 'Weather in Bergen today?');
  assert.deepEqual(
    standing.map((f) => f.id),
    many.slice(0, STANDING_COUNT).map((f) => f.id),
  );
  assert.deepEqual(
    recalled.map((f) => f.id),
    ['f50'],
  );
  const long = [fact(1, 'x'.repeat(STANDING_CHARS - 10)), fact(2, 'The user is vegetarian'), fact(3, 'short')];
  assert.deepEqual(
    factsFor(long, 'dinner?').standing.map((f) => f.id),
    ['f01'],
    'no more than the characters allow, and none out of order',
  );
});

test('the facts an answer used: it shares a distinctive word with them, a plural or a longer form too', () => {
  const facts = [{ text: 'The user is vegetarian' }, { text: 'My daughter is allergic to peanuts' }, { text: 'The user has two cats' }];
  assert.deepEqual(
    factsUsed(facts, 'Here is a vegetarian curry, and it is peanut-free.').map((f) => f.text),
    ['The user is vegetarian', 'My daughter is allergic to peanuts'],
  );
  assert.deepEqual(factsUsed(facts, 'It is 12 °C in Oslo.'), []);
  assert.deepEqual(factsUsed(facts, 'The cat sat.'), [], 'a short word is not taken for a longer one');
});
