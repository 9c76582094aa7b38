import assert from 'node:assert/strict';
import { test } from 'node:test';
import { historyCharsFor, renderAttachments, selectHistory } from './standard';

test('history keeps the newest messages that fit, opening on the user side', () => {
  const msgs = [
    { role: 'user' as const, content: 'a'.repeat(50) },
    { role: 'assistant' as const, content: 'b'.repeat(50) },
    { role: 'user' as const, content: 'c'.repeat(50) },
    { role: 'assistant' as const, content: 'd'.repeat(50) },
    { role: 'user' as const, content: 'question' },
  ];
  assert.deepEqual(selectHistory(msgs, { maxMessages: 10, maxChars: 1000 }).length, 5);
  const cut = selectHistory(msgs, { maxMessages: 10, maxChars: 120 });
  assert.deepEqual(cut.map((m) => m.content[0]), ['c', 'd', 'q']);
  assert.deepEqual(selectHistory(msgs, { maxMessages: 2, maxChars: 1000 }).map((m) => m.content), ['question']);
  const huge = [{ role: 'user' as const, content: 'x'.repeat(5000) }];
  assert.equal(selectHistory(huge, { maxMessages: 5, maxChars: 10 }).length, 1, 'the question always goes in');
  assert.equal(historyCharsFor(2048), 4000);
  assert.equal(historyCharsFor(16384), 37152);
});

test('attachments render newest first within the cap, as data', () => {
  const text = renderAttachments([
    { name: 'old.txt', mime: 'text/plain', size: 3, text: 'o'.repeat(80_000) },
    { name: 'new.txt', mime: 'text/plain', size: 3, text: 'hello' },
  ])!;
  assert.match(text, /^The user attached 2 files/);
  assert.match(text, /--- new\.txt \(text\/plain, 3 bytes\) ---\nhello\n--- end of new\.txt ---/);
  assert.match(text, /\[… cut to fit\]/);
  assert.equal(renderAttachments([]), null);
});
