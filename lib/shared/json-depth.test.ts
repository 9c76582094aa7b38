import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

test('nesting is counted by the outline, brackets inside strings and escaped quotes not counted', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  assert.equal(nestsDeeperThan(deep(MAX_JSON_DEPTH)), false, 'exactly the limit is fine');
  assert.equal(nestsDeeperThan(deep(MAX_JSON_DEPTH + 1)), true);
  assert.equal(nestsDeeperThan('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)), true);
  assert.equal(nestsDeeperThan(JSON.stringify({ s: '['.repeat(1000), t: 'a\\"[[[' })), false);
  assert.equal(nestsDeeperThan(`[${'[]'.repeat(10_000)}]`), false, 'wide is not deep');
  assert.equal(nestsDeeperThan('[[[', 2), true);
});
