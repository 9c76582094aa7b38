import assert from 'node:assert/strict';
import { test } from 'node:test';
import { identityPrompt } from './prompts';

/** The identity block's date line (to the hour, in the user's timezone) and location line (README: What a turn does). */

const base = { assistantName: 'Hearth', modelId: 'm', webSearch: true, toolNames: ['web_search'] };

test('the date is given to the hour, in the user’s timezone', () => {
  const text = identityPrompt({ ...base, now: Date.UTC(2026, 11, 1, 23, 30), timezone: 'Asia/Tokyo' });
  assert.match(text, /Today is Wednesday,? 2 December 2026\. It is around 8 AM in the user's timezone \(Asia\/Tokyo\)\./);
  // Minutes are left out, so the block (and the prompt cache behind it) stays the same within the hour.
  assert.equal(identityPrompt({ ...base, now: Date.UTC(2026, 11, 1, 23, 5), timezone: 'Asia/Tokyo' }), text);
  assert.notEqual(identityPrompt({ ...base, now: Date.UTC(2026, 11, 2, 0, 5), timezone: 'Asia/Tokyo' }), text);
});

test('the location line is there when a location is set, and only then', () => {
  const at = { ...base, now: Date.UTC(2026, 11, 1, 9), timezone: 'Europe/Paris' };
  assert.match(identityPrompt({ ...at, location: 'Lyon, France' }), /The user is in Lyon, France; use that for weather, local news and anything nearby\./);
  assert.doesNotMatch(identityPrompt(at), /The user is in/);
});
