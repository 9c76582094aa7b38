import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StepJournal, type StoredStep } from './step-journal';

/** The step journal alone: what a restarted turn replays, and where it stops replaying. */

function journal(stored: StoredStep[]) {
  const appended: StoredStep[] = [];
  const runs: string[] = [];
  const l = new StepJournal(stored, (s) => {
    appended.push(s);
  });
  const step = (kind: string, value: unknown) =>
    l.step(kind, async () => {
      runs.push(kind);
      return value;
    });
  return { l, appended, runs, step };
}

test('steps: a fresh turn runs every step and stores each under 1, 2, 3', async () => {
  const { l, appended, runs, step } = journal([]);
  assert.equal(l.replaying, false, 'nothing to replay');
  assert.deepEqual(await step('model', 'a'), { value: 'a', replayed: false });
  assert.deepEqual(await step('tool', { n: 1 }), { value: { n: 1 }, replayed: false });
  assert.deepEqual(runs, ['model', 'tool']);
  assert.deepEqual(appended, [
    { seq: 1, kind: 'model', data: 'a' },
    { seq: 2, kind: 'tool', data: { n: 1 } },
  ]);
});

test('steps: a restarted turn replays stored steps without running them, then runs the rest', async () => {
  const stored = [
    { seq: 2, kind: 'tool', data: 'stored tool' },
    { seq: 1, kind: 'model', data: 'stored model' },
  ];
  const { l, appended, runs, step } = journal(stored);
  assert.equal(l.replaying, true, 'before step 1 of 2 stored');
  assert.deepEqual(await step('model', 'new'), { value: 'stored model', replayed: true });
  assert.equal(l.replaying, true, 'after step 1 of 2 stored');
  assert.deepEqual(await step('tool', 'new'), { value: 'stored tool', replayed: true });
  assert.equal(l.replaying, false, 'after the last stored step');
  assert.deepEqual(await step('model', 'third'), { value: 'third', replayed: false });
  assert.deepEqual(runs, ['model'], 'only the third step ran');
  assert.deepEqual(appended, [{ seq: 3, kind: 'model', data: 'third' }]);
});

test('steps: a step of another kind than stored means the code took another path: replay stops for good', async () => {
  const stored = [
    { seq: 1, kind: 'model', data: 'm1' },
    { seq: 2, kind: 'decision', data: 'd2' },
    { seq: 3, kind: 'tool', data: 't3' },
  ];
  const { l, appended, runs, step } = journal(stored);
  await step('model', 'x');
  assert.deepEqual(await step('tool', 'fresh'), { value: 'fresh', replayed: false }, 'kind differs at 2: it runs');
  assert.equal(l.replaying, false, 'diverged');
  assert.deepEqual(
    await step('tool', 'fresh 3'),
    { value: 'fresh 3', replayed: false },
    'step 3 matches in kind but is not replayed after a divergence',
  );
  assert.deepEqual(runs, ['tool', 'tool']);
  assert.deepEqual(
    appended.map((s) => s.seq),
    [2, 3],
  );
});

test('steps: a failed step is not stored and its number is not reused', async () => {
  const { appended, step, l } = journal([]);
  await assert.rejects(
    l.step('tool', async () => Promise.reject(new Error('down'))),
    /down/,
  );
  await step('tool', 'ok');
  assert.deepEqual(appended, [{ seq: 2, kind: 'tool', data: 'ok' }]);
});

test('steps: a gap in the stored numbers (a failed step before the crash) runs that step', async () => {
  const { runs, step } = journal([{ seq: 2, kind: 'model', data: 'stored' }]);
  assert.deepEqual(await step('tool', 'ran'), { value: 'ran', replayed: false });
  assert.deepEqual(await step('model', 'new'), { value: 'stored', replayed: true });
  assert.deepEqual(runs, ['tool']);
});
