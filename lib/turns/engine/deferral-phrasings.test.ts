import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findDeferral, findRefusal } from './deferral';
import phrasings from '@/lib/dev/testing/fixtures/deferral-phrasings.json' with { type: 'json' };

/** [draft, the words the check reports] (a third element notes what a group is for). */
const CAUGHT_PHRASINGS = phrasings.caught as unknown as [draft: string, match: string][];

/**
 * Extra spaces between words do not hide a deferral (models do write "I'll  check"). A compound
 * written open ("real time", "up to date") keeps its one space: "real  time" is two words apart.
 */
function spaced(text: string): string {
  return text
    .replace(/ /g, '  ')
    .replace(/real {2}time/gi, 'real time')
    .replace(/up {2}to {2}date/gi, 'up to date');
}

test('each phrasing of each deferral pattern is caught, with exactly its words reported', () => {
  const wrong = CAUGHT_PHRASINGS.filter(([draft, match]) => findDeferral(draft) !== match).map(
    ([draft]) => `${draft} → ${findDeferral(draft)}`,
  );
  assert.deepEqual(wrong, []);
});

test('extra spaces between the words of a deferral do not hide it', () => {
  const wrong = CAUGHT_PHRASINGS.filter(([draft, match]) => findDeferral(spaced(draft)) !== spaced(match)).map(
    ([draft]) => `${spaced(draft)} → ${findDeferral(spaced(draft))}`,
  );
  assert.deepEqual(wrong, []);
});

// A report of work done before the offer means the reply has answered; each form of report, alone.
const WORK_REPORTS = [
  'I searched the registry and it lists 42.',
  'We checked the registry and it lists 42.',
  'I looked it up and the registry lists 42.',
  'I looked that up and the registry lists 42.',
  'I looked up the registry and it lists 42.',
  'I looked into the registry and it lists 42.',
  'I looked at the registry and it lists 42.',
  'I found 42 in the registry.',
  'I fetched the registry page and it lists 42.',
  'I read the registry page and it lists 42.',
  'I ran the numbers and got 42.',
  'I calculated 42 from the figures.',
  'I verified 42 against the figures.',
  'According to the registry, it is 42.',
  'Based on the registry, it is 42.',
  'Based on my notes, it is 42.',
  'Based on your figures, it is 42.',
  'Based on these figures, it is 42.',
  'Based on those figures, it is 42.',
  'The search results say 42.',
  'The tool result shows 42.',
  'The results list 42.',
  'The results mention 42.',
  'The results indicate 42.',
  'The results suggest 42.',
  "Here's what I found: 42.",
  'Here is what I found: 42.',
];
const OFFER = 'Would you like me to check again?';

test('an offer after a report of work done is an answer, whichever words report the work', () => {
  assert.equal(findDeferral(OFFER), 'Would you like me to', 'the offer alone is a deferral');
  const flagged = WORK_REPORTS.filter((report) => findDeferral(`${report} ${OFFER}`) !== null);
  assert.deepEqual(flagged, []);
  const flaggedSpaced = WORK_REPORTS.filter((report) => findDeferral(spaced(`${report} ${OFFER}`)) !== null);
  assert.deepEqual(flaggedSpaced, []);
});

test('answers that share a deferral pattern’s words are let through', () => {
  const answers = [
    // A promise whose work follows the colon.
    'I can do that for you: the total is 42 euros, VAT included.',
    'I can do that for you : the total is 42 euros, VAT included.',
    'Let me check: 12 × 4 = 48, so the total is 48 in all.',
    'Let me check the math: 12 × 4 = 48, so the total is 48. Is that what you needed?',
    // Lookup words in the middle of a sentence about someone else.
    'The fans were searching for tickets all night.',
    'Demand is high; collectors keep grabbing the new cards right away.',
    // A wait word at the end of an instruction.
    'Put the lid back and press down on it.',
  ];
  const flagged = answers.filter((a) => findDeferral(a) !== null).map((a) => `${a} → ${findDeferral(a)}`);
  assert.deepEqual(flagged, []);
});

test('a promise with its work after a colon: the colon must come within 40 characters and 20 characters of content after it', () => {
  const gap40 = ' the sum of the March and May invoices i'; // 40 characters between the promise and the colon
  assert.equal(gap40.length, 40, 'the gap is 40 characters');
  assert.equal(findDeferral(`Let me check${gap40}: 12 + 30 = 42 in all.`), null);
  assert.equal(findDeferral(`Let me check${gap40}s: 12 + 30 = 42 in all.`), 'Let me check', 'a colon 41 characters on is too far');
  assert.equal(findDeferral('Let me check the sum: 12 + 30 = 42 in all.'), null, '20 characters of content');
  assert.equal(findDeferral('Let me check the sum: 12 + 30 = 42 total.'), 'Let me check', '19 characters of content');
  assert.equal(findDeferral('Let me check the sum:    12 + 30 = 42 total.   '), 'Let me check', 'spaces around the content do not count');
  assert.equal(
    findDeferral('Let me check the figures.\nThey are 12 and 4: their product is 48 in all.'),
    'Let me check',
    'a line break comes before the colon',
  );
  // Only the first pattern (a promise to look something up) gives way to work after a colon.
  assert.equal(
    findDeferral('Would you like me to look it up? Here is what I remember: the museum opens at 9 on weekdays.'),
    'Would you like me to',
  );
});

test('the head and length limits, at their edges and with the draft’s outer whitespace left out', () => {
  const prefix = 'The museum opens at 9 and closes at 18. '.repeat(6);
  assert.equal(prefix.length, 240, 'the prefix is 240 characters');
  assert.equal(findDeferral(`${prefix}${OFFER}`), null, 'a match starting at character 240');
  assert.equal(findDeferral(`${prefix.slice(1)}${OFFER}`), 'Would you like me to', 'a match starting at character 239');
  const answer = `${OFFER} ${'Detail. '.repeat(200)}`.slice(0, 1200);
  assert.equal(answer.length, 1200, 'the draft is 1,200 characters');
  assert.equal(findDeferral(answer), 'Would you like me to', 'a 1,200-character draft is still checked');
  assert.equal(findDeferral(`\n\n  ${answer}  \n`), 'Would you like me to', 'its outer whitespace does not count');
  assert.equal(findDeferral(`${answer}x`), null, 'a 1,201-character draft is an answer');
  assert.equal(findDeferral('   One moment...'), 'One moment...', 'a short reply with leading spaces');
});

test('a wait phrase is a deferral only with a lookup within 60 characters after it', () => {
  assert.equal(findDeferral("Hold on, I'll need a minute to browse."), 'Hold on');
  const near = 'Hold on, the archive by the river mill opens at nine to browse.';
  assert.equal(near.indexOf('browse'), 56, 'the lookup word starts 56 characters on');
  assert.equal(findDeferral(near), 'Hold on');
  assert.equal(
    findDeferral('Hold on, the old mill by the river was built in 1820 and rebuilt in 1901, and its archive is open to browse.'),
    null,
  );
  assert.equal(findDeferral('One moment while I do that.'), 'One moment');
});

test('each phrasing of a refusal is caught, with exactly its words reported', () => {
  const cases: Array<[string, string]> = [
    ['I cannot answer this from the tool results.', 'I cannot answer this from the tool results'],
    ["We can't determine that from the search results.", "We can't determine that from the search results"],
    ['I could not tell you from results.', 'I could not tell you from results'],
    ["I couldn't answer your question based on the results.", "I couldn't answer your question based on the results"],
    ['I am unable to determine it, sadly, from the results.', 'I am unable to determine it, sadly, from the results'],
    ['I was unable to tell that from results.', 'I was unable to tell that from results'],
    ['The results do not contain the date, so I cannot say.', 'The results do not contain the date, so I cannot'],
    ["The tool results don't include prices and I can't say.", "The tool results don't include prices and I can't"],
    ["The results don't say, I cannot tell.", "The results don't say, I cannot"],
    ["The results do not mention the fee; I can't guess.", "The results do not mention the fee; I can't"],
  ];
  const wrong = cases.filter(([draft, match]) => findRefusal(draft) !== match).map(([d]) => `${d} → ${findRefusal(d)}`);
  assert.deepEqual(wrong, []);
  const wrongSpaced = cases
    .filter(([draft, match]) => findRefusal(spaced(draft)) !== spaced(match))
    .map(([d]) => `${spaced(d)} → ${findRefusal(spaced(d))}`);
  assert.deepEqual(wrongSpaced, []);
});
