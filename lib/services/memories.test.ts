import assert from 'node:assert/strict';
import { test } from 'node:test';
import { freshStore } from '@/lib/dev/testing/store';
import { rememberTool } from '@/lib/tools/remember';
import { ChangeFeed } from './change-feed';
import { memoryBook } from './memories';

test('two remember calls of one batch at once are decided one after the other: a near duplicate replaces, never doubles', async () => {
  const store = freshStore();
  const memory = memoryBook({ store, updates: new ChangeFeed() });
  const deps = { now: () => 0, timezone: 'UTC', threadId: 't', memory };
  const signal = new AbortController().signal;
  await Promise.all([
    rememberTool.run({ action: 'add', fact: 'The user has a cat called Tom' }, deps, signal),
    rememberTool.run({ action: 'add', fact: 'The user has a cat called Tom.' }, deps, signal),
  ]);
  assert.equal((await store.listMemories()).length, 1);
});
