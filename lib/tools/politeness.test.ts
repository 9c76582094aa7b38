import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memoryHosts } from '@/lib/dev/testing/memory-hosts';
import { createHostPacer, hostKey, restingMessage } from './politeness';

/** The host pacer's edges, with literal figures: the hour and day budgets, when a rest ends, what the model is told. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

test('the hour and the day budgets refuse with their own reason and until when they come free', async () => {
  let t = 10 * DAY;
  const pacer = createHostPacer(memoryHosts(), () => t, { h: { minGapMs: 0, perMinute: 100, perHour: 3, perDay: 5 } });
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await pacer.admit('h'), { ok: true, waitMs: 0 });
    t += 2 * MINUTE;
  }
  assert.deepEqual(await pacer.admit('h'), { ok: false, reason: 'rate budget for this hour is used up', until: t + HOUR });
  t += HOUR;
  assert.equal((await pacer.admit('h')).ok, true);
  assert.equal((await pacer.admit('h')).ok, true);
  assert.deepEqual(await pacer.admit('h'), { ok: false, reason: 'rate budget for today is used up', until: t + DAY });
  // Another host has its own budget (the default one).
  assert.equal((await pacer.admit('other')).ok, true);
});

test('a refusal rests the host six hours with the status in the reason; the rest ends exactly at its time', async () => {
  let t = 1_000;
  const store = memoryHosts();
  const pacer = createHostPacer(store, () => t);
  await pacer.refused('search.example:8888', 429);
  assert.deepEqual(store.boxes.get('search.example:8888'), { until: 1_000 + 6 * HOUR, reason: 'it answered HTTP 429 (too many requests)' });
  t = 1_000 + 6 * HOUR - 1;
  assert.equal(await pacer.isResting('search.example:8888'), true);
  assert.deepEqual(await pacer.admit('search.example:8888'), {
    ok: false,
    reason: 'it answered HTTP 429 (too many requests)',
    until: 1_000 + 6 * HOUR,
  });
  t = 1_000 + 6 * HOUR;
  assert.equal(await pacer.isResting('search.example:8888'), false);
  assert.equal((await pacer.admit('search.example:8888')).ok, true);
  // Success clears a box only when there is one.
  await pacer.succeeded('never-boxed');
  assert.equal(store.boxes.size, 1);
});

test('the model is told how long a host rests, in whole minutes, at least one', () => {
  assert.equal(
    restingMessage('a.org', { reason: 'it answered HTTP 429 (too many requests)', until: 1_000 + 90 * MINUTE }, 1_000),
    'a.org is resting for about 90 minute(s) (it answered HTTP 429 (too many requests)). Do not call it again in this turn: answer with what you have and say plainly what could not be checked.',
  );
  assert.match(restingMessage('a.org', { reason: 'x', until: 1_010 }, 1_000), /about 1 minute\(s\)/);
  assert.match(restingMessage('a.org', { reason: 'x', until: 1_000 + 150_000 }, 1_000), /about 3 minute\(s\)/, '2.5 minutes round to 3');
});

test('a host is known by its name and port, as in its URL', () => {
  assert.equal(hostKey('http://127.0.0.1:8888/search?q=x'), '127.0.0.1:8888');
  assert.equal(hostKey('https://Example.ORG/a'), 'example.org');
  assert.equal(hostKey(new URL('https://example.org:443/')), 'example.org');
});

test('admissions asked at once are decided one after another: the gap and the budget hold for parallel calls', async () => {
  // A store that answers later, as the real one may: both admissions would otherwise read the spend before either records it.
  const hosts = memoryHosts();
  const later: typeof hosts = {
    ...hosts,
    spendSince: async (args) => {
      const spent = await hosts.spendSince(args);
      await new Promise((resolve) => setImmediate(resolve));
      return spent;
    },
  };
  const pacer = createHostPacer(later, () => 1_000, { h: { minGapMs: 400, perMinute: 2, perHour: 100, perDay: 100 } });
  const [first, second, third] = await Promise.all([pacer.admit('h'), pacer.admit('h'), pacer.admit('h')]);
  assert.deepEqual(first, { ok: true, waitMs: 0 });
  assert.deepEqual(second, { ok: true, waitMs: 400 }, 'the second waits out the gap after the first');
  assert.equal(third.ok, false, 'the minute allows two');
});
