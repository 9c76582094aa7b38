import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedQueue } from './bounded-queue';

test('at most two run at once (password hashes, document readers); the rest wait in order and all finish', async () => {
  const queue = boundedQueue(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const releases: (() => void)[] = [];
  const jobs = Array.from({ length: 6 }, (_, i) =>
    queue(async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((r) => releases.push(r));
      running--;
      order.push(i);
      return i;
    }),
  );
  while (order.length < 6) {
    await new Promise((r) => setImmediate(r));
    assert.ok(running <= 2);
    releases.shift()?.();
  }
  assert.deepEqual(await Promise.all(jobs), [0, 1, 2, 3, 4, 5]);
  assert.equal(most, 2);
  assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
});
