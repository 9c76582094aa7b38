import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SlotQueue } from './queue';

test('one turn per slot; the rest wait in order and hear their place', async () => {
  const q = new SlotQueue(1);
  const heard: Record<string, number[]> = { b: [], c: [] };
  await q.enter('a', () => assert.fail('a runs at once'));
  let bIn = false;
  let cIn = false;
  const b = q.enter('b', (p) => heard.b.push(p)).then(() => (bIn = true));
  const c = q.enter('c', (p) => heard.c.push(p)).then(() => (cIn = true));
  assert.deepEqual(heard, { b: [1], c: [2] });
  q.leave('a');
  await b;
  assert.equal(bIn, true);
  assert.equal(cIn, false);
  assert.deepEqual(heard.c, [2, 1]);
  q.leave('b');
  await c;
  assert.deepEqual(q.stats, { running: 1, waiting: 0, slots: 1 });
});

test('a waiting turn that is stopped leaves the queue; more slots admit more', async () => {
  const q = new SlotQueue(1);
  await q.enter('a', () => undefined);
  const b = q.enter('b', () => undefined);
  q.leave('b'); // stopped while waiting: admitted so it can see its abort and end
  await b;
  assert.deepEqual(q.stats, { running: 1, waiting: 0, slots: 1 });
  const c = q.enter('c', () => undefined);
  q.setSlots(2);
  await c;
  assert.equal(q.stats.running, 2);
});
