import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sentences, settledMarkdown, speakable } from './speech';

test('Markdown marks go; a link is its text, an image its description', () => {
  assert.equal(
    speakable('## Trip plan\n\nTake **the early train** to [Bergen](https://example.com/b) and see ![the harbour at dawn](x.png).'),
    'Trip plan. Take the early train to Bergen and see an image: the harbour at dawn.',
  );
  assert.equal(speakable('- first thing\n- second thing\n\n> quoted line'), 'first thing. second thing. quoted line.');
  assert.equal(speakable('Use `npm test` now.<br>Then <b>stop</b>.'), 'Use npm test now. Then stop.');
});

test('a code block, a table and a formula are each said in one phrase', () => {
  assert.equal(speakable('Run this:\n\n```python\nprint("hi")\n```\n\nDone.'), 'Run this: a Python code block. Done.');
  assert.equal(speakable('```\nls\n```'), 'a code block.');
  assert.equal(speakable('```elixir\nIO.puts 1\n```'), 'an elixir code block.');
  assert.equal(speakable('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |'), 'a table of 2 rows.');
  assert.equal(speakable('| a |\n|---|\n| 1 |'), 'a table of 1 row.');
  assert.equal(speakable('The area is $$\\pi r^2$$ and $x$ grows.'), 'The area is a formula and a formula grows.');
});

test('units, currencies, percentages and ranges after a number are said in words', () => {
  assert.equal(speakable('It is 5 km away, 1 km by foot.'), 'It is 5 kilometres away, 1 kilometre by foot.');
  assert.equal(speakable('Heat to 180°C for 25 min.'), 'Heat to 180 degrees Celsius for 25 minutes.');
  assert.equal(speakable('It costs $20 or €1, 15% off.'), 'It costs 20 dollars or 1 euro, 15 percent off.');
  assert.equal(speakable('Sleep 7–9 h a night; a 16 GB card.'), 'Sleep 7 to 9 hours a night; a 16 gigabytes card.');
  assert.equal(speakable('The m in Mm is not a unit; Jim sings.'), 'The m in Mm is not a unit; Jim sings.');
});

test('common emoji are said as words, the others left out', () => {
  assert.equal(speakable('Done ✅ 🦄 Have fun 🎉'), 'Done check mark Have fun party popper.');
});

test('sentences end at a full stop before a capital, not at e.g. or a decimal', () => {
  assert.deepEqual(sentences('It is 3.5 km long. Bring water, e.g. two litres. Ready? Go!'), [
    'It is 3.5 km long.',
    'Bring water, e.g. two litres.',
    'Ready? Go!',
  ]);
  assert.deepEqual(sentences('No end yet'), ['No end yet']);
  assert.deepEqual(sentences(''), []);
  assert.deepEqual(sentences('Yes. That is the answer you want. And more.'), ['Yes. That is the answer you want.', 'And more.']);
});

test('an answer still streaming is settled up to its last complete sentence, heading or list item', () => {
  assert.equal(settledMarkdown('The harbour is old. It was bui'), 'The harbour is old. ');
  assert.equal(settledMarkdown('The harbour is old.'), '', 'a full stop at the very end may be a decimal point still arriving');
  assert.equal(settledMarkdown('It costs 3.'), '');
  assert.equal(settledMarkdown('It costs 3.5 dollars! And'), 'It costs 3.5 dollars! ');
  assert.equal(settledMarkdown('## Trip plan\nTake the'), '## Trip plan\n');
  assert.equal(settledMarkdown('- first thing\n- second'), '- first thing\n');
  assert.equal(settledMarkdown('**Note.** Then'), '**Note.** ');
  assert.equal(settledMarkdown(''), '');
});

test('an open code block, display formula or table waits until it is complete, then is said in one phrase', () => {
  const code = 'Run this. Now:\n\n```python\nprint("Hello. World. ")\n';
  assert.equal(settledMarkdown(code), 'Run this. Now:\n\n');
  assert.equal(settledMarkdown(`${code}\`\`\`\nThen`), `${code}\`\`\`\n`);
  assert.equal(speakable(settledMarkdown(`${code}\`\`\`\nThen`)), 'Run this. Now: a Python code block.');
  assert.equal(settledMarkdown('Area:\n$$\n\\pi r. ^2\n'), '');
  assert.equal(settledMarkdown('Area:\n$$\n\\pi r. ^2\n$$\nSo'), 'Area:\n$$\n\\pi r. ^2\n$$\n');
  assert.equal(settledMarkdown('See. \n$$x = 1$$\n\nSo'), 'See. \n$$x = 1$$\n\n', 'a formula on one line is complete');
  const table = 'Counts. \n\n| a | b |\n|---|---|\n| 1. | 2 |\n';
  assert.equal(settledMarkdown(table), 'Counts. \n\n');
  assert.equal(settledMarkdown(`${table}\nDone`), `${table}\n`);
  assert.equal(speakable(settledMarkdown(`${table}\nDone`)), 'Counts. a table of 1 row.');
});

test('an emphasis cut open mid-stream leaves no marks to be read out, and arithmetic keeps its star', () => {
  assert.equal(speakable('**This is bold. '), 'This is bold.');
  assert.equal(speakable('It is 2 * 3 = 6.'), 'It is 2 * 3 = 6.');
});
