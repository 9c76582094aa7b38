import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from '@/e2e/double/llama-double';
import type { CollectionDetail, PassageView } from '@/lib/contract/responses';
import { httpCall } from './client';
import { startHearth, type HearthServer } from './hearth-server';

/**
 * A knowledge collection's own search (GET /api/collections/:id/search, the page's "Try a
 * question" box) against the production server: a collection of two short files finds the
 * passage a plain question asks about (issue 46: in a tiny collection the words that match
 * were dropped as too common, and it found nothing).
 */

let double: LlamaDouble;
let hearth: HearthServer;

before(async () => {
  double = await startLlamaDouble();
  hearth = await startHearth({ LLAMA_URL: double.url, MODEL_SLOTS: '1' });
});

after(async () => {
  await hearth?.stop();
  await double?.close();
});

const call = (method: string, path: string, opts: Parameters<typeof httpCall>[3] = {}) => httpCall(hearth.url, method, path, opts);

async function upload(collectionId: string, name: string, text: string) {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/plain' }), name);
  const res = await call('POST', `/api/collections/${collectionId}/files`, { body: form });
  assert.equal(res.status, 201, res.text);
}

test('a collection of two short files finds the passage a plain question asks about', async () => {
  const created = await call('POST', '/api/collections', { json: { name: 'House' } });
  assert.equal(created.status, 201, created.text);
  const { id } = created.body as { id: string };
  await upload(id, 'heat-pump.txt', 'The heat pump comes with a warranty of five years from the day it is installed.\n');
  await upload(id, 'garden.txt', 'Water the tomatoes in the evening, and the roses once a week.\n');
  // Indexed in the background: searchable by its words once no file is queued.
  for (let tries = 0; ; tries++) {
    const detail = (await call('GET', `/api/collections/${id}`)).body as CollectionDetail;
    if (detail.fileList.length === 2 && detail.fileList.every((f) => f.status === 'ready' || f.status === 'indexing')) break;
    assert.ok(tries < 200, `the files were not indexed: ${JSON.stringify(detail.fileList)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const q = encodeURIComponent('How long is the warranty on the heat pump?');
  const found = await call('GET', `/api/collections/${id}/search?q=${q}`);
  assert.equal(found.status, 200, found.text);
  const { passages } = found.body as { passages: PassageView[] };
  assert.ok(passages.length > 0, 'nothing found');
  assert.equal(passages[0].fileName, 'heat-pump.txt');
  assert.match(passages[0].text, /warranty of five years/);
});
