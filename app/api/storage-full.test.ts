import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { setRuntime } from '@/lib/services/runtime';
import { getThread, makeRuntime, newThread, send } from './harness';

/**
 * The disk filling up in the middle of a turn (SQLITE_FULL on an event write): the turn stops
 * with storage_full, the page hears it although it could not be stored, and the question and
 * what was said so far stay. (e2e/contract/resilience.test.ts fills a real database.)
 */

let double: LlamaDouble;
before(async () => {
  double = await startLlamaDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
});

test('a full disk mid-turn ends the turn with storage_full; the question and the partial answer stay', async () => {
  const runtime = await makeRuntime({ llamaUrl: double.url, env: { HEARTH_TITLES: 'first-words' } });
  const threadId = await newThread();
  double.setScript(() => ({ content: 'one two three four five six seven eight nine ten' }));
  const appendEvent = runtime.store.appendEvent;
  let writes = 0;
  runtime.store.appendEvent = async (row) => {
    if (row.type === 'delta' && ++writes > 3) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return appendEvent(row);
  };
  try {
    const evs = await send(threadId, 'count to ten');
    const end = evs.at(-1) as { type: string; code?: string; message?: string };
    assert.equal(end.type, 'error', evs.map((e) => e.type).join(','));
    assert.equal(end.code, 'storage_full');
    assert.match(end.message ?? '', /full/);
    const { body } = await getThread(threadId);
    const [question, answer] = body.messages as { role: string; content: string; status: string; errorCode: string | null }[];
    assert.equal(question.content, 'count to ten');
    assert.equal(answer.status, 'error');
    assert.equal(answer.errorCode, 'storage_full');
    assert.ok(answer.content.startsWith('one two'), `the partial answer is kept: "${answer.content}"`);
  } finally {
    runtime.store.appendEvent = appendEvent;
    double.setScript(undefined);
  }
});
