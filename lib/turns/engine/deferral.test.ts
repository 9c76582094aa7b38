import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFERRAL_HEAD, DEFERRAL_MAX, findDeferral, findRefusal, freeCheck } from './deferral';
import { createHash } from 'node:crypto';
import corpus from '@/lib/dev/testing/fixtures/deferral-corpus.json' with { type: 'json' };
import heldOut from '@/lib/dev/testing/fixtures/deferral-heldout.json' with { type: 'json' };

const DEFERRALS: string[] = [...corpus.deferrals, ...corpus.deferralsLater];
const GENUINE: string[] = [...corpus.genuine, ...corpus.genuineLater];
const HELD_OUT_DEFERRALS: string[] = heldOut.deferrals;
const HELD_OUT_GENUINE: string[] = heldOut.genuine;

test('the labelled corpus has at least 150 drafts', () => {
  assert.ok(DEFERRALS.length + GENUINE.length >= 150, `${DEFERRALS.length + GENUINE.length} drafts`);
});

// The manual's claim, exactly: every deferral of the corpus caught, every genuine answer let through.
test('the free checks catch every deferral of the corpus', () => {
  const missed = DEFERRALS.filter((d) => !freeCheck(d));
  console.log(`corpus: deferrals caught ${DEFERRALS.length - missed.length}/${DEFERRALS.length}`);
  assert.deepEqual(missed, []);
});

test('the free checks let every genuine answer of the corpus through', () => {
  const flagged = GENUINE.filter((d) => freeCheck(d));
  console.log(`corpus: genuine answers let through ${GENUINE.length - flagged.length}/${GENUINE.length}`);
  assert.deepEqual(flagged, []);
});

/** The held-out drafts as written (their JSON's SHA-256): a change to them would make them a training set. */
const HELD_OUT_SHA256 = '8a785fef1047b7ab72c261b6ff82ecedfd6e06965d66ecf7444fbb7bad219e9b';

test('held out: recall and precision on drafts the patterns were never tuned on (reported, the slice frozen)', () => {
  const caught = HELD_OUT_DEFERRALS.filter((d) => freeCheck(d)).length;
  const falseAlarms = HELD_OUT_GENUINE.filter((d) => freeCheck(d)).length;
  const recall = caught / HELD_OUT_DEFERRALS.length;
  const precision = caught / Math.max(1, caught + falseAlarms);
  console.log(
    `held out (${HELD_OUT_DEFERRALS.length} deferrals, ${HELD_OUT_GENUINE.length} genuine): recall ${(recall * 100).toFixed(1)}% (${caught} caught), precision ${(precision * 100).toFixed(1)}% (${falseAlarms} genuine flagged)`,
  );
  const slice = JSON.stringify([HELD_OUT_DEFERRALS, HELD_OUT_GENUINE]);
  assert.equal(createHash('sha256').update(slice).digest('hex'), HELD_OUT_SHA256, 'the held-out slice changed: see the note at its top');
  for (const d of [...HELD_OUT_DEFERRALS, ...HELD_OUT_GENUINE])
    assert.ok(!DEFERRALS.includes(d) && !GENUINE.includes(d), `held out, yet in the corpus: ${d}`);
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
