import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Settings } from '@/lib/contract/settings';
import { pendingKeys, unsavedWords } from './settings-draft';

// Only the keys a test needs: pendingKeys compares the keys the page holds.
const settings = (s: Partial<Settings>) => s as Settings;
const server = (url: string, model = '') => ({ url, model });

test('a setting is pending while its value on the page differs from the one in force', () => {
  const saved = settings({ assistantName: 'Hearth', turnFuel: 1000, disabledTools: [] });
  assert.deepEqual(pendingKeys(settings({ assistantName: 'Hearth', turnFuel: 1000, disabledTools: [] }), saved), []);
  assert.deepEqual(pendingKeys(settings({ assistantName: 'Ember', turnFuel: 1000, disabledTools: ['web_search'] }), saved), [
    'assistantName',
    'disabledTools',
  ]);
});

test('a model server row with neither address nor model is still being written: it alone makes nothing pending', () => {
  const saved = settings({ modelServers: [server('http://a/v1')] });
  assert.deepEqual(pendingKeys(settings({ modelServers: [server('http://a/v1'), server(' ', '')] }), saved), []);
  assert.deepEqual(pendingKeys(settings({ modelServers: [server('http://a/v1'), server('', 'qwen')] }), saved), ['modelServers']);
  assert.deepEqual(pendingKeys(settings({ modelServers: [server('http://a/v1'), server('http://b/v1')] }), saved), ['modelServers']);
  assert.deepEqual(pendingKeys(settings({ modelServers: [] }), saved), ['modelServers']);
});

test('the bar counts what is not saved in words', () => {
  assert.equal(unsavedWords(1), '1 change not saved');
  assert.equal(unsavedWords(2), '2 changes not saved');
});
