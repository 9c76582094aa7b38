import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLOCKS_AGREE_WITHIN_MS, clockOffsetFrom } from './cluster-signals';

test('the database’s clock against this one: from the reading with the shortest round trip, midway through it', () => {
  const readings = [
    { asked: 1000, database: 61_400, answered: 1400 },
    { asked: 2000, database: 62_010, answered: 2020 },
    { asked: 3000, database: 63_100, answered: 3100 },
  ];
  assert.equal(clockOffsetFrom(readings), 62_010 - 2010);
  // Behind: negative.
  assert.equal(clockOffsetFrom([{ asked: 5000, database: 1000, answered: 5002 }]), -4001);
});

test('clocks closer than a quarter second agree; no reading, no offset', () => {
  assert.equal(clockOffsetFrom([{ asked: 0, database: CLOCKS_AGREE_WITHIN_MS - 1, answered: 0 }]), 0);
  assert.equal(clockOffsetFrom([{ asked: 0, database: -(CLOCKS_AGREE_WITHIN_MS - 1), answered: 0 }]), 0);
  assert.equal(clockOffsetFrom([{ asked: 0, database: CLOCKS_AGREE_WITHIN_MS, answered: 0 }]), CLOCKS_AGREE_WITHIN_MS);
  assert.equal(clockOffsetFrom([]), 0);
});
