import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import { setRuntime } from '@/lib/services/runtime';
import { base, makeRuntime, newThread, params, req, send } from './harness';
import * as exportRoute from './export/route';
import * as foldersRoute from './folders/route';
import * as folderRoute from './folders/[id]/route';
import * as importRoute from './import/route';
import * as search from './search/route';
import * as threadsRoute from './threads/route';
import * as threadRoute from './threads/[id]/route';

/**
 * Folders (one level, a thread in at most one) and the archive (out of the list, still
 * searchable): made, filled, filtered, renamed, deleted, and carried by export and import.
 */

let double: LlamaDouble;
before(async () => {
  double = await startLlamaDouble();
});
after(async () => {
  setRuntime(undefined);
  await double.close();
});

const body = async (res: Response) => ({ status: res.status, body: res.status === 204 ? null : await res.json() });
const list = async (query = '') => {
  const res = await threadsRoute.GET(req('GET', `/api/threads${query}`));
  const { status, body: b } = await body(res);
  return { status, ids: status === 200 ? (b.threads as { id: string }[]).map((t) => t.id) : [], body: b };
};
const patch = (id: string, data: unknown) => threadRoute.PATCH(req('PATCH', `/api/threads/${id}`, data), params({ id })).then(body);

describe('folders and the archive', () => {
  test('a thread goes in a folder and the archive; the list filters by both; search still finds an archived thread', async () => {
    await makeRuntime({ llamaUrl: double.url });
    const made = await body(await foldersRoute.POST(req('POST', '/api/folders', { name: '  Trips  ' })));
    assert.equal(made.status, 201);
    assert.equal(made.body.name, 'Trips');
    const trips = made.body.id as string;
    assert.equal((await body(await foldersRoute.POST(req('POST', '/api/folders', { name: ' ' })))).status, 400);

    const [a, b, c] = [await newThread(), await newThread(), await newThread()];
    await send(c, 'Remember the fjord ferry times');
    const moved = await patch(a, { folderId: trips });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.folderId, trips);
    const unknown = await patch(b, { folderId: '00000000-0000-4000-8000-000000000000' });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.message, /folderId: there is no folder/);
    assert.equal((await patch(b, { folderId: 'nope' })).status, 400);

    assert.deepEqual((await list(`?folder=${trips}`)).ids, [a]);
    assert.deepEqual((await list('?folder=none')).ids.sort(), [b, c].sort());
    assert.equal((await list('?folder=00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await list('?archived=maybe')).status, 400);

    assert.equal((await patch(c, { archived: true })).body.archived, true);
    assert.ok(!(await list()).ids.includes(c), 'out of the list');
    assert.deepEqual((await list('?archived=true')).ids, [c], 'in the archive');
    const found = await (await search.GET(req('GET', '/api/search?q=fjord'))).json();
    assert.ok(
      found.results.some((r: { threadId: string }) => r.threadId === c),
      'still searchable',
    );

    const folders = await body(await foldersRoute.GET(req('GET', '/api/folders')));
    assert.deepEqual(
      folders.body.folders.map((f: { name: string; threads: number }) => [f.name, f.threads]),
      [['Trips', 1]],
    );
    const renamed = await body(await folderRoute.PATCH(req('PATCH', `/api/folders/${trips}`, { name: 'Travel' }), params({ id: trips })));
    assert.equal(renamed.body.name, 'Travel');
    assert.equal((await patch(a, { folderId: null })).body.folderId, null);
    await patch(a, { folderId: trips });
    // Deleting the folder keeps its threads, in no folder.
    assert.equal((await body(await folderRoute.DELETE(req('DELETE', `/api/folders/${trips}`), params({ id: trips })))).status, 204);
    assert.equal((await body(await folderRoute.DELETE(req('DELETE', `/api/folders/${trips}`), params({ id: trips })))).status, 404);
    assert.ok((await list('?folder=none')).ids.includes(a));
  });

  test('folders and the archive survive export and import', async () => {
    await makeRuntime({ llamaUrl: double.url });
    const folder = (await body(await foldersRoute.POST(req('POST', '/api/folders', { name: 'Work' })))).body.id as string;
    const [inFolder, archived] = [await newThread(), await newThread()];
    await patch(inFolder, { folderId: folder });
    await patch(archived, { archived: true });
    const file = await (await exportRoute.GET(req('GET', '/api/export'))).text();

    await makeRuntime({ llamaUrl: double.url });
    const imported = await importRoute.POST(
      new Request(`${base}/api/import`, { method: 'POST', body: file, headers: { 'Content-Type': 'application/x-ndjson' } }),
    );
    const summary = await imported.json();
    assert.equal(imported.status, 200, JSON.stringify(summary));
    assert.equal(summary.added.folders, 1);
    assert.deepEqual((await list(`?folder=${folder}`)).ids, [inFolder]);
    assert.deepEqual((await list('?archived=true')).ids, [archived]);
    // A thread in a folder the file does not hold is refused, with nothing imported.
    const orphan = file
      .replace(/^\{"type":"folder"[^\n]*\n/m, '')
      .replace(/"records":(\d+)/, (_, n: string) => `"records":${Number(n) - 1}`);
    await makeRuntime({ llamaUrl: double.url });
    const refused = await importRoute.POST(
      new Request(`${base}/api/import`, { method: 'POST', body: orphan, headers: { 'Content-Type': 'application/x-ndjson' } }),
    );
    assert.equal(refused.status, 400);
    assert.match((await refused.json()).error.message, /it is in folder .*, which is neither in the file nor in this library/);
  });
});
