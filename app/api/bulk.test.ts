import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getThread, makeRuntime, newThread, req, sharedDouble } from './harness';
import * as bulkRoute from './threads/bulk/route';
import * as foldersRoute from './folders/route';

/** Many threads at once (issue 46, what users of other apps looked for): all or nothing, named when refused. */

const doubles = sharedDouble();

const bulk = async (body: unknown) => {
  const res = await bulkRoute.POST(req('POST', '/api/threads/bulk', body));
  return { status: res.status, body: (await res.json()) as { count?: number; error?: { code: string; message: string } } };
};
const place = async (id: string) => {
  const t = (await getThread(id)).body as { folderId?: string | null; archived?: boolean };
  return [t.folderId ?? null, t.archived ?? false];
};
const NO_SUCH = '00000000-0000-4000-8000-00000000dead';

test('selected threads are moved, archived and brought back, and deleted, each action for all of them', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const [a, b, c] = [await newThread(), await newThread(), await newThread()];
  const folder = ((await (await foldersRoute.POST(req('POST', '/api/folders', { name: 'Trips' }))).json()) as { id: string }).id;

  assert.deepEqual(await bulk({ ids: [a, b], action: { kind: 'move', folderId: folder } }), { status: 200, body: { count: 2 } });
  assert.deepEqual(
    [await place(a), await place(b), await place(c)],
    [
      [folder, false],
      [folder, false],
      [null, false],
    ],
  );
  await bulk({ ids: [a, c], action: { kind: 'archive', archived: true } });
  assert.deepEqual(
    [await place(a), await place(b), await place(c)],
    [
      [folder, true],
      [folder, false],
      [null, true],
    ],
  );
  await bulk({ ids: [a], action: { kind: 'archive', archived: false } });
  await bulk({ ids: [a, b], action: { kind: 'move', folderId: null } });
  assert.deepEqual(
    [await place(a), await place(b)],
    [
      [null, false],
      [null, false],
    ],
  );

  assert.deepEqual(await bulk({ ids: [b, c], action: { kind: 'delete' } }), { status: 200, body: { count: 2 } });
  assert.equal((await getThread(b)).status, 404);
  assert.equal((await getThread(c)).status, 404);
  assert.equal((await getThread(a)).status, 200, 'the one not selected stays');
});

test('one missing thread or folder changes nothing, and the refusal names it', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const [a, b] = [await newThread(), await newThread()];
  const gone = await bulk({ ids: [a, NO_SUCH, b], action: { kind: 'delete' } });
  assert.equal(gone.status, 404);
  assert.match(gone.body.error!.message, new RegExp(NO_SUCH));
  assert.equal((await getThread(a)).status, 200, 'nothing was deleted');
  assert.equal((await getThread(b)).status, 200);

  const noFolder = await bulk({ ids: [a, b], action: { kind: 'move', folderId: NO_SUCH } });
  assert.equal(noFolder.status, 400);
  assert.match(noFolder.body.error!.message, /there is no folder/);
  assert.deepEqual(
    [await place(a), await place(b)],
    [
      [null, false],
      [null, false],
    ],
  );
});

test('a selection in any other shape is refused in words', async () => {
  await makeRuntime({ llamaUrl: doubles.double.url });
  const a = await newThread();
  for (const [body, words] of [
    [{ ids: [], action: { kind: 'delete' } }, /select at least one thread/],
    [{ ids: [a, a], action: { kind: 'delete' } }, /names a thread twice/],
    [{ ids: Array.from({ length: 501 }, () => a), action: { kind: 'delete' } }, /at most 500 threads/],
    [{ ids: ['nope'], action: { kind: 'delete' } }, /is not a thread id/],
    [{ ids: [a], action: { kind: 'pin' } }, /kind/],
    [{ ids: [a], action: { kind: 'archive' } }, /archived/],
    [{ ids: [a] }, /action/],
  ] as const) {
    const r = await bulk(body);
    assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
    assert.equal(r.body.error?.code, 'bad_request');
    assert.match(r.body.error!.message, words);
  }
  assert.equal((await getThread(a)).status, 200);
});
