import assert from 'node:assert/strict';
import { test } from 'node:test';
import { looksLikeArithmetic } from './arithmetic';

test('the free arithmetic check: sums and products yes, identifiers no', () => {
  for (const q of ['What is 23 * 47 + 156?', 'how much is 12.5 times 4 minus 7', '17% of 240', '3^4 - 1', 'what is 1/3 + 1/6']) assert.equal(looksLikeArithmetic(q), true, q);
  for (const q of [
    'Please read 9d2f41c0-427a-4b1e-9c3a-5f0e2d8b7a61',
    'What happened on 2026-11-30?',
    'Meet at 10:30 - or 11:00?',
    'Upgrade from v1.2.3 to 1.4.0',
    'Error code E404-2 on sha256 a3f9e1b2',
    'Explain closures.',
    'Call me on 555-0100',
  ]) assert.equal(looksLikeArithmetic(q), false, q);
});
