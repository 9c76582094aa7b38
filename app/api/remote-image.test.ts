import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setRuntime } from '@/lib/services/runtime';
import { makeRuntime, req } from './harness';
import * as imageRoute from './remote-image/route';

/** GET /api/remote-image: what a click on a blocked image in model output loads, and what it refuses. */

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
let site: http.Server;
let siteUrl = '';
const hits: string[] = [];

before(async () => {
  site = http.createServer((request, res) => {
    hits.push(request.url ?? '');
    if (request.url === '/cat.png') return res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    if (request.url === '/lying.png')
      return res.writeHead(200, { 'Content-Type': 'image/png' }).end('<html><script>alert(1)</script></html>');
    if (request.url === '/vector.svg')
      return res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    if (request.url === '/huge.png') {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.write(PNG);
      return res.end(Buffer.alloc(11 * 1024 * 1024));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

after(async () => {
  setRuntime(undefined);
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

const get = (url: string, headers: Record<string, string> = { 'Sec-Fetch-Site': 'same-origin' }) =>
  imageRoute.GET(req('GET', `/api/remote-image?url=${encodeURIComponent(url)}`, undefined, headers));

async function errorCode(res: Response) {
  return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code };
}

test('a clicked image is fetched through Hearth and served with its own type, recognised by its bytes', async () => {
  await makeRuntime({
    llamaUrl: 'http://127.0.0.1:9/v1',
    allowAddress: (a) => a === '127.0.0.1',
    env: { FETCH_ALLOWED_PORTS: String((site.address() as AddressInfo).port) },
  });
  const res = await get(`${siteUrl}/cat.png`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);
  for (const path of ['/lying.png', '/vector.svg', '/huge.png', '/missing.png']) {
    assert.deepEqual(await errorCode(await get(`${siteUrl}${path}`)), { status: 422, code: 'image_unavailable' }, path);
  }
});

test('the SSRF check applies: loopback, private and metadata addresses are refused without a request', async () => {
  await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1' });
  const before = hits.length;
  for (const url of [
    `${siteUrl}/cat.png`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/x.png',
    'http://[::1]/x.png',
    'http://2130706433/x.png',
  ]) {
    const res = await get(url);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(res.status, 422, url);
    assert.match(body.error.message, /could not be loaded/, url);
  }
  assert.equal(hits.length, before, 'nothing reached the local server');
});

test('only the page itself may ask; a malformed URL is 400', async () => {
  await makeRuntime({ llamaUrl: 'http://127.0.0.1:9/v1', allowAddress: () => true });
  assert.deepEqual(await errorCode(await get(`${siteUrl}/cat.png`, { 'Sec-Fetch-Site': 'cross-site' })), {
    status: 403,
    code: 'forbidden',
  });
  for (const url of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'file:///etc/passwd', 'x']) {
    assert.deepEqual(await errorCode(await get(url)), { status: 400, code: 'bad_request' }, url);
  }
});
