import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFERRAL_HEAD, DEFERRAL_MAX, findDeferral, findRefusal, freeCheck } from './deferral';
import { DEFERRALS, GENUINE } from './deferral-corpus';

test('the labelled corpus has at least 150 drafts', () => {
  assert.ok(DEFERRALS.length + GENUINE.length >= 150, `${DEFERRALS.length + GENUINE.length} drafts`);
});

test('the free checks catch at least 90% of deferrals', () => {
  const missed = DEFERRALS.filter((d) => !freeCheck(d));
  const rate = 1 - missed.length / DEFERRALS.length;
  console.log(`deferrals caught: ${DEFERRALS.length - missed.length}/${DEFERRALS.length} (${(rate * 100).toFixed(1)}%)`);
  assert.ok(rate >= 0.9, `missed: ${missed.join(' | ')}`);
});

test('the free checks let through at least 97% of genuine answers', () => {
  const flagged = GENUINE.filter((d) => freeCheck(d));
  const rate = 1 - flagged.length / GENUINE.length;
  console.log(`genuine answers let through: ${GENUINE.length - flagged.length}/${GENUINE.length} (${(rate * 100).toFixed(1)}%)`);
  assert.ok(rate >= 0.97, `flagged: ${flagged.join(' | ')}`);
});

test('second-person advice is not a deferral', () => {
  assert.equal(findDeferral('You can search their site for the hours.'), null);
  assert.equal(findDeferral('You could look it up on Wikipedia.'), null);
});

test('an offer after the first 240 characters is a closing courtesy', () => {
  const answer = 'The museum opens at 9 and closes at 18. '.repeat(8);
  assert.ok(answer.length > DEFERRAL_HEAD);
  assert.equal(findDeferral(`${answer}Would you like me to check the shop hours too?`), null);
  assert.ok(findDeferral(`Would you like me to check the shop hours? ${answer}`));
});

test('a reply longer than 1,200 characters is never a deferral', () => {
  const long = `I don't have access to live data, but here is everything I know. ${'Detail. '.repeat(200)}`;
  assert.ok(long.length > DEFERRAL_MAX);
  assert.equal(findDeferral(long), null);
});

test('refusals are caught anywhere', () => {
  const text = `${'Some context. '.repeat(30)}I can't answer that from the tool results.`;
  assert.ok(findRefusal(text));
  assert.equal(freeCheck(text)?.kind, 'refusal');
  assert.ok(findRefusal('Sorry, I cannot determine that based on the search results.'));
  assert.equal(findRefusal('The search results say it opens at 9.'), null);
});
