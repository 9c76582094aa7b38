import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base, getThread, makeRuntime, newThread, params, req, send, sharedDouble } from './harness';
import * as exportRoute from './export/route';
import * as importRoute from './import/route';
import * as modelsRoute from './models/route';
import * as ratingRoute from './threads/[id]/messages/[messageId]/rating/route';

/**
 * Thumbs on an answer (issue 46, what users of other apps looked for): kept on the answer, counted
 * by the model that wrote it in the models list (the picker's scorecard), carried by the library file.
 */

const doubles = sharedDouble();

type Message = { id: string; role: string; model?: string | null; rating?: string | null };
const messagesOf = async (id: string) => ((await getThread(id)).body as { messages: Message[] }).messages;
const rate = async (threadId: string, messageId: string, body: unknown) => {
  const res = await ratingRoute.PUT(
    req('PUT', `/api/threads/${threadId}/messages/${messageId}/rating`, body),
    params({ id: threadId, messageId }),
  );
  return { status: res.status, body: await res.json() };
};
const ratingsOf = async (model: string) => {
  const listed = (await (await modelsRoute.GET(req('GET', '/api/models'))).json()) as { models: { id: string; ratings?: unknown }[] };
  return listed.models.find((m) => m.id === model)?.ratings;
};

test('an answer takes thumbs up or down, counted by its model; a second press changes or takes them back', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const threadId = await newThread();
  await send(threadId, 'What is the capital of France?');
  await send(threadId, 'And of Italy?');
  const [q1, a1, , a2] = await messagesOf(threadId);
  assert.equal(a1.rating, null, 'an answer starts unrated');
  assert.equal(q1.rating, undefined, 'a question has no thumbs');
  const model = a1.model!;
  assert.ok(model);
  assert.equal(await ratingsOf(model), undefined, 'no thumbs yet: no count');

  const up = await rate(threadId, a1.id, { rating: 'up' });
  assert.equal(up.status, 200);
  assert.equal((up.body as { messages: Message[] }).messages[1].rating, 'up', 'answers with the thread as shown');
  await rate(threadId, a2.id, { rating: 'down' });
  assert.deepEqual(await ratingsOf(model), { up: 1, down: 1 });
  await rate(threadId, a2.id, { rating: 'up' });
  assert.deepEqual(await ratingsOf(model), { up: 2, down: 0 });
  await rate(threadId, a1.id, { rating: null });
  assert.deepEqual(await ratingsOf(model), { up: 1, down: 0 });
  assert.deepEqual(
    (await messagesOf(threadId)).map((m) => m.rating),
    [undefined, null, undefined, 'up'],
  );
});

test('thumbs are refused on a question, on another thread’s answer, and in any other shape', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const one = await newThread();
  const other = await newThread();
  await send(one, 'Hello there.');
  const [question, answer] = await messagesOf(one);
  const notFound = async (threadId: string, messageId: string) => {
    const r = await rate(threadId, messageId, { rating: 'up' });
    assert.equal(r.status, 404);
    assert.equal((r.body as { error: { code: string } }).error.code, 'not_found');
  };
  await notFound(one, question.id);
  await notFound(other, answer.id);
  await notFound('00000000-0000-4000-8000-000000000000', answer.id);
  for (const body of [{ rating: 'meh' }, { rating: 1 }, {}, { rating: 'up', extra: true }]) {
    const r = await rate(one, answer.id, body);
    assert.equal(r.status, 400, JSON.stringify(body));
  }
  const bad = await ratingRoute.PUT(
    req('PUT', `/api/threads/${one}/messages/not-an-id/rating`, { rating: 'up' }),
    params({ id: one, messageId: 'not-an-id' }),
  );
  assert.equal(bad.status, 404);
  assert.equal((await messagesOf(one))[1].rating, null, 'nothing changed');
});

test('the library file carries the thumbs to a fresh Hearth', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const threadId = await newThread();
  await send(threadId, 'What is two and two?');
  const [, answer] = await messagesOf(threadId);
  await rate(threadId, answer.id, { rating: 'down' });
  const file = await (await exportRoute.GET(req('GET', '/api/export'))).text();
  const record = file
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; id?: string; rating?: unknown })
    .find((r) => r.type === 'message' && r.id === answer.id);
  assert.equal(record?.rating, -1);

  await makeRuntime({ llamaUrl: doubles.double.url });
  const res = await importRoute.POST(
    new Request(`${base}/api/import`, { method: 'POST', body: file, headers: { 'Content-Type': 'application/x-ndjson' } }),
  );
  assert.equal(res.status, 200);
  assert.equal((await messagesOf(threadId))[1].rating, 'down');
  assert.deepEqual(await ratingsOf(answer.model!), { up: 0, down: 1 });

  // A thumbs value the format does not know is refused by name.
  const forged = file.replace('"rating":-1', '"rating":5');
  await makeRuntime({ llamaUrl: doubles.double.url });
  const refused = await importRoute.POST(
    new Request(`${base}/api/import`, { method: 'POST', body: forged, headers: { 'Content-Type': 'application/x-ndjson' } }),
  );
  assert.equal(refused.status, 400);
  assert.match(((await refused.json()) as { error: { message: string } }).error.message, /rating/);
});
