import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupThreads } from './thread-groups';

test('threads are grouped: pinned, today, yesterday, the previous 7 days, older; order kept within a group', () => {
  const now = new Date(2026, 11, 10, 9, 0).getTime(); // 10 December, 09:00 local time
  const at = (day: number, hour: number) => new Date(2026, 11, day, hour, 0).getTime();
  const threads = [
    { id: 'a', pinned: false, updatedAt: at(10, 8) },
    { id: 'b', pinned: true, updatedAt: at(1, 12) },
    { id: 'c', pinned: false, updatedAt: at(10, 0) },
    { id: 'd', pinned: false, updatedAt: at(9, 23) },
    { id: 'e', pinned: false, updatedAt: at(9, 0) },
    { id: 'f', pinned: false, updatedAt: at(3, 12) },
    { id: 'g', pinned: false, updatedAt: at(2, 23) },
    { id: 'h', pinned: false, updatedAt: at(1, 1) },
  ];
  assert.deepEqual(
    groupThreads(threads, now).map((g) => [g.label, g.threads.map((t) => t.id).join('')]),
    [
      ['Pinned', 'b'],
      ['Today', 'ac'],
      ['Yesterday', 'de'],
      ['Previous 7 days', 'f'],
      ['Older', 'gh'],
    ],
  );
  assert.deepEqual(groupThreads([], now), [], 'no empty groups');
});
