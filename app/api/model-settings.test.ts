import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { startSearxDouble, type SearxDouble } from '@/e2e/double/searxng-double';
import { setRuntime } from '@/lib/services/runtime';
import { makeRuntime, newThread, send } from './harness';

/**
 * What the environment and the decide steps send to llama-server, seen on the server's side
 * of a real turn (docs/configuration.md, and the decide steps' sampling).
 */

let double: LlamaDouble;
let searx: SearxDouble;
before(async () => {
  [double, searx] = await Promise.all([startLlamaDouble(), startSearxDouble()]);
});
after(async () => {
  setRuntime(undefined);
  await Promise.all([double.close(), searx.close()]);
});

test('LLAMA_API_KEY and LLAMA_MODEL reach the server on every call of a turn', async () => {
  await makeRuntime({
    llamaUrl: double.url,
    searxUrl: searx.url,
    env: { LLAMA_API_KEY: 'sk-local-7f3a', LLAMA_MODEL: 'qwen3-8b-instruct' },
  });
  double.requests.length = 0;
  const evs = await send(await newThread(), 'What is the price of bitcoin today?');
  assert.equal(evs.at(-1)?.type, 'done');
  assert.ok(double.requests.length >= 3, 'rounds and decide steps');
  for (const r of double.requests) {
    assert.equal(r.authorization, 'Bearer sk-local-7f3a');
    assert.equal(r.body.model, 'qwen3-8b-instruct');
  }
});

test('decide steps sample at temperature 1, top_p 1, top_k 0, min_p 0 (their probabilities mean something only there)', async () => {
  await makeRuntime({ llamaUrl: double.url, searxUrl: searx.url });
  double.requests.length = 0;
  // Answered without tools: freshness is asked of it (the classifier spares the verdict).
  await send(await newThread(), 'Explain how tides work.');
  const decides = double.requests.filter((r) => r.schema);
  assert.ok(decides.length >= 1, 'a decide step ran');
  for (const r of decides) {
    assert.deepEqual([r.body.temperature, r.body.top_p, r.body.top_k, r.body.min_p, r.body.post_sampling_probs], [1, 1, 0, 0, true]);
  }
});
