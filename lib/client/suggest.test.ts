import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matching, triggerOf, withoutToken } from './suggest';

test('"/" offers prompts only while the box holds just the command', () => {
  assert.deepEqual(triggerOf('/'), { kind: 'prompt', query: '' });
  assert.deepEqual(triggerOf('/Sum'), { kind: 'prompt', query: 'sum' });
  assert.deepEqual(triggerOf('/sum-up2'), { kind: 'prompt', query: 'sum-up2' });
  assert.equal(triggerOf('/sum up'), null);
  assert.equal(triggerOf(' /sum'), null);
  assert.equal(triggerOf('a/b'), null);
  assert.equal(triggerOf('/usr/bin'), null);
  assert.equal(triggerOf(''), null);
});

test('"#" offers collections for the last word, at the start or after a space, never inside a word', () => {
  assert.deepEqual(triggerOf('#'), { kind: 'collection', query: '', start: 0 });
  assert.deepEqual(triggerOf('What does #Man'), { kind: 'collection', query: 'man', start: 10 });
  assert.deepEqual(triggerOf('line one\n#notes'), { kind: 'collection', query: 'notes', start: 9 });
  assert.equal(triggerOf('issue#12'), null);
  assert.equal(triggerOf('#manuals and more'), null);
  assert.equal(triggerOf('C# code'), null);
  assert.equal(triggerOf('##'), null);
});

test('names that begin with the query come first, then those containing it, at most the limit', () => {
  const items = ['notes', 'manuals', 'man-pages', 'German', 'Manor'].map((name) => ({ name }));
  assert.deepEqual(
    matching(items, 'man').map((i) => i.name),
    ['manuals', 'man-pages', 'Manor', 'German'],
  );
  assert.deepEqual(
    matching(items, '').map((i) => i.name),
    ['notes', 'manuals', 'man-pages', 'German', 'Manor'],
  );
  assert.deepEqual(
    matching(items, 'man', 2).map((i) => i.name),
    ['manuals', 'man-pages'],
  );
  assert.deepEqual(matching(items, 'xyz'), []);
});

test('the chosen "#name" leaves the text, and the spaces before it', () => {
  assert.equal(withoutToken('What does #man', 10), 'What does');
  assert.equal(withoutToken('#man', 0), '');
  assert.equal(withoutToken('line\n#man', 5), 'line\n');
});
