import assert from 'node:assert/strict';
import { test } from 'node:test';
import { base, makeRuntime, params, req, sharedDouble } from './harness';
import * as exportRoute from './export/route';
import * as importRoute from './import/route';
import * as promptRoute from './prompts/[id]/route';
import * as promptsRoute from './prompts/route';

/** Saved prompts (issue 46, what users of other apps looked for): named as typed after "/", kept, carried by the library file. */

const doubles = sharedDouble();

type Prompt = { id: string; name: string; text: string };
type Err = { error: { code: string; message: string } };
const add = async (body: unknown) => {
  const res = await promptsRoute.POST(req('POST', '/api/prompts', body));
  return { status: res.status, body: (await res.json()) as Prompt & Err };
};
const edit = async (id: string, body: unknown) => {
  const res = await promptRoute.PATCH(req('PATCH', `/api/prompts/${id}`, body), params({ id }));
  return { status: res.status, body: (await res.json()) as Prompt & Err };
};
const list = async () => ((await (await promptsRoute.GET(req('GET', '/api/prompts'))).json()) as { prompts: Prompt[] }).prompts;
const importFile = async (file: string) =>
  importRoute.POST(new Request(`${base}/api/import`, { method: 'POST', body: file, headers: { 'Content-Type': 'application/x-ndjson' } }));

test('a prompt is saved under the name typed after "/", listed by name, edited and deleted', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const made = await add({ name: '/Summarize', text: 'Summarize in five bullet points:' });
  assert.equal(made.status, 201);
  assert.equal(made.body.name, 'summarize', 'the slash and capitals are not part of the name');
  await add({ name: 'ask-back', text: 'Ask me three questions first.' });
  assert.deepEqual(
    (await list()).map((p) => p.name),
    ['ask-back', 'summarize'],
  );

  const edited = await edit(made.body.id, { name: 'tldr', text: 'In one line:' });
  assert.equal(edited.status, 200);
  assert.deepEqual([edited.body.name, edited.body.text], ['tldr', 'In one line:']);
  const gone = await promptRoute.DELETE(req('DELETE', `/api/prompts/${made.body.id}`), params({ id: made.body.id }));
  assert.equal(gone.status, 204);
  assert.deepEqual(
    (await list()).map((p) => p.name),
    ['ask-back'],
  );
  const again = await promptRoute.DELETE(req('DELETE', `/api/prompts/${made.body.id}`), params({ id: made.body.id }));
  assert.equal(again.status, 404);
  assert.equal((await edit(made.body.id, { text: 'x' })).status, 404);
});

test('a name taken, a name that cannot be typed after "/", or an empty text is refused in words', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const first = await add({ name: 'translate', text: 'Translate into French:' });
  const second = await add({ name: 'other', text: 'Something else.' });
  for (const [body, words] of [
    [{ name: 'translate', text: 'Again' }, /there is a prompt \/translate already/],
    [{ name: 'two words', text: 'x' }, /lowercase letters, digits and dashes/],
    [{ name: '', text: 'x' }, /lowercase letters/],
    [{ name: 'x'.repeat(41), text: 'x' }, /up to 40/],
    [{ name: '-dash', text: 'x' }, /lowercase letters/],
    [{ name: 'ok', text: '   ' }, /write the prompt/],
    [{ name: 'ok', text: 'x'.repeat(20_001) }, /at most 20,000 characters/],
    [{ name: 'ok' }, /text/],
  ] as const) {
    const r = await add(body);
    assert.equal(r.status, 400, JSON.stringify(body).slice(0, 60));
    assert.match(r.body.error.message, words);
  }
  const renamed = await edit(second.body.id, { name: 'translate' });
  assert.equal(renamed.status, 400);
  assert.match(renamed.body.error.message, /there is a prompt \/translate already/);
  assert.equal((await edit(first.body.id, { name: 'translate', text: 'Into German:' })).status, 200, 'its own name is no conflict');
  assert.deepEqual(
    (await list()).map((p) => [p.name, p.text]),
    [
      ['other', 'Something else.'],
      ['translate', 'Into German:'],
    ],
  );
});

test('the library file carries the prompts: one already here stays, one whose name is taken arrives under the next free name', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  await add({ name: 'summarize', text: 'Summarize:' });
  await add({ name: 'review', text: 'Review this code:' });
  const file = await (await exportRoute.GET(req('GET', '/api/export'))).text();
  assert.equal(file.split('\n').filter((l) => l.includes('"type":"prompt"')).length, 2);

  await makeRuntime({ llamaUrl: doubles.double.url });
  await add({ name: 'summarize', text: 'Summarize:' });
  await add({ name: 'review', text: 'Review for security only:' });
  const res = await importFile(file);
  assert.equal(res.status, 200);
  const summary = (await res.json()) as { added: { prompts: number }; alreadyHere: { prompts: number } };
  assert.deepEqual([summary.added.prompts, summary.alreadyHere.prompts], [1, 1]);
  assert.deepEqual(
    (await list()).map((p) => [p.name, p.text]),
    [
      ['review', 'Review for security only:'],
      ['review-2', 'Review this code:'],
      ['summarize', 'Summarize:'],
    ],
  );
  // Again: nothing new.
  const twice = (await (await importFile(file)).json()) as { added: { prompts: number } };
  assert.equal(twice.added.prompts, 0);
  assert.equal((await list()).length, 3);

  // A name no one could type after "/" is refused by name.
  await makeRuntime({ llamaUrl: doubles.double.url });
  const forged = await importFile(file.replace('"name":"review"', '"name":"../x"'));
  assert.equal(forged.status, 400);
  assert.match(((await forged.json()) as Err).error.message, /prompt name/);
});
