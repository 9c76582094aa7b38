import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isTitleRequest } from '@/lib/turns/supervisor/titles';
import { base, getThread, makeRuntime, newThread, params, req, rounds, send, sharedDouble } from './harness';
import * as exportRoute from './export/route';
import * as importRoute from './import/route';
import * as threadRoute from './threads/[id]/route';

/**
 * Sampling per thread (issue 46, what users of other apps looked for): llama-server's own fields
 * on the calls that write the thread's replies, never on its checks or titles; refused by name
 * outside the ranges; carried by the library file.
 */

const doubles = sharedDouble();

const patch = async (id: string, body: unknown) => {
  const res = await threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, body), params({ id }));
  return { status: res.status, body: (await res.json()) as { sampling?: unknown; error?: { code: string; message: string } } };
};
const SAMPLING_FIELDS = ['temperature', 'top_p', 'top_k', 'min_p'];
const sent = (body: Record<string, unknown>) => Object.fromEntries(SAMPLING_FIELDS.filter((f) => f in body).map((f) => [f, body[f]]));

test("a thread's sampling goes with its reply calls only, and null gives the servers' defaults back", async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const id = await newThread();
  assert.equal((await getThread(id)).body.sampling, null, 'a new thread keeps the servers’ defaults');
  const set = await patch(id, { sampling: { temperature: 0.7, topP: 0.9, topK: 40, minP: 0.05 } });
  assert.equal(set.status, 200);
  assert.deepEqual(set.body.sampling, { temperature: 0.7, topP: 0.9, topK: 40, minP: 0.05 });

  doubles.double.requests.length = 0;
  await send(id, 'What is the capital of France?');
  const replies = rounds(doubles.double);
  assert.ok(replies.length >= 1);
  for (const r of replies) assert.deepEqual(sent(r.body), { temperature: 0.7, top_p: 0.9, top_k: 40, min_p: 0.05 });
  // Checks keep their own sampling, titles theirs.
  for (const r of doubles.double.requests.filter((r) => r.schema)) assert.notEqual(r.body.top_k, 40, 'a check');
  for (const r of doubles.double.requests.filter((r) => isTitleRequest(r))) assert.equal(r.body.temperature, 0.3, 'a title');

  // One field alone: the others are the server's.
  assert.deepEqual((await patch(id, { sampling: { temperature: 1.2 } })).body.sampling, { temperature: 1.2 });
  doubles.double.requests.length = 0;
  await send(id, 'And of Italy?');
  for (const r of rounds(doubles.double)) assert.deepEqual(sent(r.body), { temperature: 1.2 });

  // {} and null are both the servers' defaults.
  assert.equal((await patch(id, { sampling: {} })).body.sampling, null);
  assert.deepEqual((await patch(id, { sampling: { topK: 20 } })).body.sampling, { topK: 20 });
  assert.equal((await patch(id, { sampling: null })).body.sampling, null);
  doubles.double.requests.length = 0;
  await send(id, 'And of Spain?');
  for (const r of rounds(doubles.double)) assert.deepEqual(sent(r.body), {});
});

test('a value outside its range is refused by its label, and the thread keeps what it had', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const id = await newThread();
  await patch(id, { sampling: { temperature: 0.5 } });
  for (const [body, words] of [
    [{ temperature: 2.5 }, /Temperature: must be at most 2/],
    [{ temperature: -1 }, /Temperature: must be at least 0/],
    [{ topP: 1.5 }, /Top P: must be at most 1/],
    [{ topK: 4.5 }, /Top K: must be a whole number/],
    [{ topK: 201 }, /Top K: must be at most 200/],
    [{ minP: 2 }, /Min P: must be at most 1/],
    [{ seed: 3 }, /seed/],
    [{ temperature: '0.7' }, /temperature/i],
  ] as const) {
    const r = await patch(id, { sampling: body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.error?.code, 'bad_request');
    assert.match(r.body.error!.message, words);
  }
  assert.deepEqual((await getThread(id)).body.sampling, { temperature: 0.5 });
});

test('the library file carries a thread’s sampling to a fresh Hearth', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const id = await newThread();
  await patch(id, { sampling: { temperature: 0.2, minP: 0.1 } });
  const file = await (await exportRoute.GET(req('GET', '/api/export'))).text();
  await makeRuntime({ llamaUrl: doubles.double.url });
  const res = await importRoute.POST(
    new Request(`${base}/api/import`, { method: 'POST', body: file, headers: { 'Content-Type': 'application/x-ndjson' } }),
  );
  assert.equal(res.status, 200);
  assert.deepEqual((await getThread(id)).body.sampling, { temperature: 0.2, minP: 0.1 });
  // A file with a value out of range is refused, not stored.
  await makeRuntime({ llamaUrl: doubles.double.url });
  const forged = await importRoute.POST(
    new Request(`${base}/api/import`, {
      method: 'POST',
      body: file.replace('"temperature":0.2', '"temperature":9'),
      headers: { 'Content-Type': 'application/x-ndjson' },
    }),
  );
  assert.equal(forged.status, 400);
});
