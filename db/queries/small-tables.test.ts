import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoginLimiter } from '@/lib/services/auth/rate-limit';
import { freshEngineStore, sqliteOnly } from '@/lib/dev/testing/store';

/** The small tables: outside hosts' rests and spend, memories, login sessions, settings. */

test('a host’s rest: set, set again (counting the trips), cleared', async () => {
  const s = await freshEngineStore();
  assert.equal(await s.penaltyOf({ host: 'a.example' }), undefined);
  await s.setPenalty({ host: 'a.example', until: 100, reason: '429' });
  assert.deepEqual(await s.penaltyOf({ host: 'a.example' }), { host: 'a.example', until: 100, trips: 1, reason: '429' });
  await s.setPenalty({ host: 'a.example', until: 500, reason: '202' });
  assert.deepEqual(await s.penaltyOf({ host: 'a.example' }), { host: 'a.example', until: 500, trips: 2, reason: '202' });
  await s.setPenalty({ host: 'b.example', until: 1, reason: 'x' });
  await s.clearPenalty({ host: 'a.example' });
  assert.equal(await s.penaltyOf({ host: 'a.example' }), undefined);
  assert.equal((await s.penaltyOf({ host: 'b.example' }))?.trips, 1);
});

test('a host’s spend: counted from a moment on (inclusive), for that host; older spend pruned', async () => {
  const s = await freshEngineStore();
  for (const at of [10, 20, 30]) await s.recordSpend({ host: 'a', at });
  await s.recordSpend({ host: 'b', at: 25 });
  assert.deepEqual((await s.spendSince({ host: 'a', since: 20 })).sort(), [20, 30]);
  assert.deepEqual(await s.spendSince({ host: 'b', since: 0 }), [25]);
  await s.pruneSpend({ before: 20 });
  assert.deepEqual((await s.spendSince({ host: 'a', since: 0 })).sort(), [20, 30], 'before is exclusive');
});

test('memories: newest change first; an edit moves one up; a delete says whether it found one', async () => {
  const s = await freshEngineStore();
  assert.deepEqual(await s.insertMemory({ id: 'a', text: 'Likes tea', now: 1 }), {
    id: 'a',
    text: 'Likes tea',
    createdAt: 1,
    updatedAt: 1,
  });
  await s.insertMemory({ id: 'b', text: 'Lives in Lyon', now: 2 });
  assert.deepEqual(
    (await s.listMemories()).map((m) => m.id),
    ['b', 'a'],
  );
  assert.deepEqual(await s.updateMemory({ id: 'a', text: 'Likes green tea', now: 3 }), {
    id: 'a',
    text: 'Likes green tea',
    createdAt: 1,
    updatedAt: 3,
  });
  assert.deepEqual(
    (await s.listMemories()).map((m) => m.id),
    ['a', 'b'],
  );
  assert.equal(await s.updateMemory({ id: 'missing', text: 'x', now: 4 }), undefined);
  assert.equal((await s.getMemory({ id: 'b' }))?.text, 'Lives in Lyon');
  assert.equal(await s.deleteMemory({ id: 'b' }), true);
  assert.equal(await s.deleteMemory({ id: 'b' }), false);
  assert.equal(await s.getMemory({ id: 'b' }), undefined);
});

test('sessions: found by id until deleted, expired ones (strictly before now) pruned, all of them at once', async () => {
  const s = await freshEngineStore();
  await s.insertUser({ id: 'u', username: 'ada', role: 'owner', passwordHash: null, library: 'hearth.db', createdAt: 0 });
  await s.insertSession({ id: 'old', userId: 'u', createdAt: 1, expiresAt: 10 });
  await s.insertSession({ id: 'edge', userId: 'u', createdAt: 1, expiresAt: 20 });
  await s.insertSession({ id: 'new', userId: 'u', createdAt: 1, expiresAt: 30 });
  assert.deepEqual(await s.sessionById('new'), { expiresAt: 30, userId: 'u', role: 'owner', username: 'ada', disabled: false });
  await s.deleteExpiredSessions(20);
  assert.equal(await s.sessionById('old'), undefined);
  assert.ok(await s.sessionById('edge'), 'expiring now is not yet expired');
  await s.deleteSession('edge');
  assert.equal(await s.sessionById('edge'), undefined);
  assert.ok(await s.sessionById('new'));
  await s.deleteAllSessions();
  assert.equal(await s.sessionById('new'), undefined);
});

test(
  'settings: stored as JSON, overwritten, reset to the default by removal; an unreadable value reads as unset',
  { skip: sqliteOnly },
  async () => {
    const s = await freshEngineStore();
    assert.deepEqual(await s.storedSettings(), {});
    await s.writeSettings({ set: { maxRounds: 4, assistantName: 'Ember', webSearch: false }, reset: [], now: 1 });
    await s.writeSettings({ set: { maxRounds: 5 }, reset: ['webSearch'], now: 2 });
    assert.deepEqual(await s.storedSettings(), { maxRounds: 5, assistantName: 'Ember' });
    s.db.$client.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('broken', '{nope', 3)").run();
    assert.deepEqual(await s.storedSettings(), { maxRounds: 5, assistantName: 'Ember' });
    const row = s.db.$client.prepare("SELECT value, updated_at FROM settings WHERE key = 'maxRounds'").get();
    assert.deepEqual(row, { value: '5', updated_at: 2 });
  },
);

test('login attempts made all at once: no more get through than the limit allows, on either engine', async () => {
  const s = await freshEngineStore();
  const limiter = new LoginLimiter(s, 'address', { perAddress: 3, overall: 100, windowMs: 60_000 }, () => 1_000);
  const answers = await Promise.all(Array.from({ length: 20 }, () => limiter.reserve('10.0.0.1')));
  assert.equal(answers.filter((a) => typeof a !== 'number').length, 3, 'three attempts counted, every other one told to wait');
});
