import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from './client';
import { createStore } from './store';
import { ConnectionGate } from './connection-gate';

/**
 * The store's transactions hold SQLite's one connection across awaits (db/connection-gate.ts):
 * another request's statements wait until it ends, its own go through, a failure undoes all.
 */

const freshStore = () => createStore(openDatabase(':memory:'));
/** A turn of the event loop: whatever another request would do meanwhile gets its chance. */
const aTurnLater = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a call from elsewhere waits until an open transaction commits, and then sees all of it', async () => {
  const s = freshStore();
  const order: string[] = [];
  const tx = s.transaction(async () => {
    await s.createThread({ id: 'a', title: 'A', now: 1 });
    order.push('tx wrote a');
    await aTurnLater();
    await s.createThread({ id: 'b', title: 'B', now: 2 });
    order.push('tx wrote b');
  });
  const outside = s.countThreads().then((n) => {
    order.push(`outside counted ${n}`);
    return n;
  });
  await Promise.all([tx, outside]);
  assert.deepEqual(order, ['tx wrote a', 'tx wrote b', 'outside counted 2']);
});

test('a failing transaction undoes every write it made, and a write from elsewhere meanwhile is not undone with it', async () => {
  const s = freshStore();
  const tx = s.transaction(async () => {
    await s.createThread({ id: 'a', title: 'A', now: 1 });
    await aTurnLater();
    throw new Error('changed my mind');
  });
  const outside = s.createThread({ id: 'other', title: 'Other', now: 3 });
  await assert.rejects(tx, /changed my mind/);
  await outside;
  assert.equal(await s.getThread({ id: 'a' }), undefined);
  assert.equal((await s.getThread({ id: 'other' }))?.title, 'Other');
  assert.equal(s.db.$client.inTransaction, false);
});

test('transactions from two requests run one after the other, never interleaved', async () => {
  const s = freshStore();
  const order: string[] = [];
  const one = (name: string) =>
    s.transaction(async () => {
      order.push(`${name} begins`);
      await aTurnLater();
      await s.createThread({ id: name, title: name, now: 1 });
      order.push(`${name} ends`);
    });
  await Promise.all([one('first'), one('second')]);
  assert.deepEqual(order, ['first begins', 'first ends', 'second begins', 'second ends']);
  assert.equal(await s.countThreads(), 2);
});

test('a transaction inside a transaction is part of it: one failure undoes both', async () => {
  const s = freshStore();
  await assert.rejects(
    s.transaction(async () => {
      await s.createThread({ id: 'outer', title: 'O', now: 1 });
      await s.transaction(async () => {
        await s.createThread({ id: 'inner', title: 'I', now: 1 });
      });
      throw new Error('no');
    }),
    /no/,
  );
  assert.equal(await s.countThreads(), 0);
});

test('calls run in the order they were made, each whole before the next', async () => {
  const s = freshStore();
  // Neither awaited before both are made: the first still lands first, and the second finds it.
  const first = s.createThread({ id: 'a', title: 'A', now: 1 });
  const second = s.createThread({ id: 'a', title: 'again', now: 2 });
  assert.equal((await first).title, 'A');
  await assert.rejects(second, /UNIQUE/);
});

test('a call that awaits between its statements holds the connection: another request’s transaction waits for its end', async () => {
  const s = freshStore();
  const order: string[] = [];
  const gate = new ConnectionGate(s.db.$client);
  const held = gate.call(async () => {
    order.push('call: first statement');
    await aTurnLater();
    order.push('call: last statement');
  });
  const transaction = gate.transaction(async () => {
    order.push('transaction');
  });
  await Promise.all([held, transaction]);
  assert.deepEqual(order, ['call: first statement', 'call: last statement', 'transaction']);
});

test('calls waiting for the gate get it in the order they were made: one made as the holder lets go comes after them', async () => {
  const s = freshStore();
  const gate = new ConnectionGate(s.db.$client);
  const order: string[] = [];
  let finish!: () => void;
  const work = new Promise<void>((resolve) => (finish = resolve));
  const held = gate.call(() => work);
  const waiting = gate.call(() => order.push('B'));
  // Made the very moment the holder's work is done, before the waiting call has run: it still comes second.
  const late = work.then(() => gate.call(() => order.push('C')));
  finish();
  await Promise.all([held, waiting, late]);
  assert.deepEqual(order, ['B', 'C']);
});
