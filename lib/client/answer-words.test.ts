import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LiveToolCall } from '@/lib/contract/turn-state';
import { memoryChange, searchWords } from './answer-words';

const call = (name: string, args: unknown, result?: unknown, ok = true) =>
  ({ id: name, name, arguments: typeof args === 'string' ? args : JSON.stringify(args), ok, result }) as LiveToolCall;

test('what the remember tool did, in words; nothing for another tool, a failure or an odd result', () => {
  assert.equal(memoryChange(call('remember', {}, { remembered: 'Keeps bees' })), 'Remembered: Keeps bees');
  assert.equal(
    memoryChange(call('remember', {}, { remembered: 'Keeps bees', replaced: 'Keeps wasps' })),
    'Remembered: Keeps bees (replacing: Keeps wasps)',
  );
  assert.equal(memoryChange(call('remember', {}, { forgotten: 'Keeps bees' })), 'Forgot: Keeps bees');
  assert.equal(memoryChange(call('remember', {}, { remembered: 'x' }, false)), null);
  assert.equal(memoryChange(call('remember', {}, { remembered: 3 })), null);
  assert.equal(memoryChange(call('remember', {}, null)), null);
  assert.equal(memoryChange(call('web_search', {}, { remembered: 'x' })), null);
});

test('the words of each web search, in order; other tools and arguments that are not JSON give none', () => {
  const calls = [
    call('web_search', { query: 'gold price' }),
    call('fetch_url', { url: 'https://x' }),
    call('web_search', '{not json'),
    call('web_search', { query: 42 }),
    call('web_search', { query: 'silver price' }),
  ];
  assert.deepEqual(searchWords(calls), ['gold price', 'silver price']);
  assert.deepEqual(searchWords([]), []);
});
