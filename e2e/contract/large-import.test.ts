import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { derivedId } from '@/lib/services/library/foreign';
import { largeChatgptExportBody, largeExportConversationId } from '@/lib/dev/testing/chatgpt-export';
import { memoryMb } from '../load/load';
import { httpCall } from './client';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * A large export streams in: ChatGPT's conversations.json of 5,000 conversations, larger than
 * the whole JavaScript heap the production server is given (128 MB). Read whole, as one JSON
 * document, it could not fit in that heap; read a conversation at a time, it imports, and the
 * server keeps answering. (`npm run bench` reports the time and peak memory of a 200 MB one.)
 */

const HEAP_MB = 128;
const CONVERSATIONS = 5000;
let double: LlamaDouble;
let hearth: HearthServer;

before(async () => {
  double = await startLlamaDouble();
  hearth = await startHearth({ LLAMA_URL: double.url, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
});

after(async () => {
  const log = hearth?.stderr() ?? '';
  await hearth?.stop();
  await double?.close();
  assert.doesNotMatch(log, /Something went wrong|⨯|TypeError|heap out of memory/, 'the server logged an unexpected error');
});

test(
  `a ${CONVERSATIONS}-conversation ChatGPT export larger than the server's ${HEAP_MB} MB heap streams in whole`,
  { timeout: 300_000 },
  async () => {
    const { body, sent: sentBytes } = largeChatgptExportBody({ conversations: CONVERSATIONS, metadataBytes: 26_000 });
    const res = await httpCall(hearth.url, 'POST', '/api/import', { body, headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(res.status, 200, res.text.slice(0, 500));
    const sent = sentBytes();
    assert.ok(sent > HEAP_MB * 1024 * 1024, `the export (${(sent / 1e6).toFixed(0)} MB) is larger than the heap`);
    const summary = res.body as { source: string; added: { threads: number; messages: number } };
    assert.equal(summary.source, 'chatgpt');
    assert.equal(summary.added.threads, CONVERSATIONS);
    assert.equal(summary.added.messages, CONVERSATIONS * 4);
    console.log(
      `large import: ${(sent / 1e6).toFixed(0)} MB, ${CONVERSATIONS} conversations; server peak RSS ${memoryMb(hearth.pid, 'VmHWM').toFixed(0)} MB (heap capped at ${HEAP_MB} MB)`,
    );
    // The last conversation is there, whole, and the server answers as before.
    const last = await httpCall(hearth.url, 'GET', `/api/threads/${derivedId('chatgpt', largeExportConversationId(CONVERSATIONS - 1))}`);
    assert.equal(last.status, 200, last.text.slice(0, 300));
    const view = last.body as { title: string; messages: { role: string; content: string }[] };
    assert.equal(view.title, `Chat ${CONVERSATIONS - 1}`);
    assert.deepEqual(
      view.messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.match(view.messages[3].content, new RegExp(`^Answer 1 of chat ${CONVERSATIONS - 1}: `));
  },
);
