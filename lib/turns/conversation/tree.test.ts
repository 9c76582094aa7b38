import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endedWordless, MessageTree } from './tree';

/*
 * q1 ─ a1 ─ q2 ─ a2 ─ q3 ─ a3
 *  │         └── a2b            (a regenerated answer)
 *  └─ (root) q1b ─ a1b          (the first question edited)
 */
const rows = [
  { id: 'q1', parentId: null },
  { id: 'a1', parentId: 'q1' },
  { id: 'q2', parentId: 'a1' },
  { id: 'a2', parentId: 'q2' },
  { id: 'q3', parentId: 'a2' },
  { id: 'a3', parentId: 'q3' },
  { id: 'a2b', parentId: 'q2' },
  { id: 'q1b', parentId: null },
  { id: 'a1b', parentId: 'q1b' },
];
const ids = (list: { id: string }[]) => list.map((m) => m.id);

test('the path shown runs from the root to the leaf; an unknown or missing leaf shows the newest message', () => {
  const tree = new MessageTree(rows);
  assert.deepEqual(ids(tree.shownPath('a3')), ['q1', 'a1', 'q2', 'a2', 'q3', 'a3']);
  assert.deepEqual(ids(tree.shownPath('a2b')), ['q1', 'a1', 'q2', 'a2b']);
  assert.deepEqual(ids(tree.shownPath(null)), ['q1b', 'a1b']);
  assert.deepEqual(ids(tree.shownPath('gone')), ['q1b', 'a1b']);
  assert.deepEqual(ids(new MessageTree([]).shownPath(null)), []);
  assert.deepEqual(ids(tree.pathTo('q2')), ['q1', 'a1', 'q2']);
  assert.deepEqual(ids(tree.pathTo('nope')), []);
});

test('versions are a message and its siblings, oldest first; roots are siblings of each other', () => {
  const tree = new MessageTree(rows);
  assert.deepEqual(ids(tree.siblings('a2')), ['a2', 'a2b']);
  assert.deepEqual(ids(tree.siblings('a2b')), ['a2', 'a2b']);
  assert.deepEqual(ids(tree.siblings('q1b')), ['q1', 'q1b']);
  assert.deepEqual(ids(tree.siblings('a3')), ['a3']);
  assert.deepEqual(ids(tree.siblings('nope')), []);
});

test('an answer that ended with no words is no version of the ones beside it: a retry takes its place', () => {
  const m = (id: string, status: string, content: string, parentId: string | null = 'q') => ({
    id,
    parentId,
    role: 'assistant',
    status,
    content,
  });
  const tree = new MessageTree([
    { id: 'q', parentId: null, role: 'user', status: 'complete', content: 'Hi?' },
    m('failed', 'error', ''),
    m('stopped', 'interrupted', '  '),
    m('cut', 'error', 'Half an answer'),
    m('good', 'complete', 'A whole answer'),
  ]);
  assert.deepEqual(ids(tree.versions('good', endedWordless)), ['cut', 'good'], 'words written before a failure are a version');
  assert.deepEqual(ids(tree.versions('failed', endedWordless)), ['failed', 'cut', 'good'], 'shown itself, it is still counted');
  assert.equal(endedWordless({ role: 'user', status: 'error', content: '' }), false, 'only answers');
  assert.equal(endedWordless({ role: 'assistant', status: 'complete', content: '' }), false, 'an empty whole answer is a version');
});

test('choosing a version goes to the newest message under it', () => {
  const tree = new MessageTree(rows);
  assert.equal(tree.newestUnder('a2')?.id, 'a3');
  assert.equal(tree.newestUnder('q2')?.id, 'a2b', 'a2b was written after a3');
  assert.equal(tree.newestUnder('q1')?.id, 'a2b');
  assert.equal(tree.newestUnder('a1b')?.id, 'a1b');
  assert.equal(tree.newestUnder('nope'), undefined);
});

test('a subtree is the message and everything after it on every branch; offPath is what the page does not show', () => {
  const tree = new MessageTree(rows);
  assert.deepEqual(ids(tree.subtree('q2')).sort(), ['a2', 'a2b', 'a3', 'q2', 'q3']);
  assert.deepEqual(ids(tree.subtree('a3')), ['a3']);
  assert.deepEqual(ids(tree.offPath('a3')), ['a2b', 'q1b', 'a1b']);
  assert.equal(tree.size, 9);
});

test('bad links from an imported file cannot loop or lose a message', () => {
  // A cycle (x → y → x) and a parent in no thread.
  const tree = new MessageTree([
    { id: 'x', parentId: 'y' },
    { id: 'y', parentId: 'x' },
    { id: 'orphan', parentId: 'elsewhere' },
  ]);
  assert.deepEqual(ids(tree.pathTo('x')), ['y', 'x']);
  assert.deepEqual(ids(tree.subtree('x')).sort(), ['x', 'y']);
  assert.deepEqual(ids(tree.shownPath(null)), ['orphan'], 'a parent that is not here makes a root');
  assert.deepEqual(ids(tree.siblings('orphan')), ['orphan']);
});
