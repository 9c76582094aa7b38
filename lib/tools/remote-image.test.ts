import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localSite } from '@/lib/dev/testing/local-site';
import { memoryHosts } from '@/lib/dev/testing/memory-hosts';
import { createHostPacer } from './politeness';
import { fetchRemoteImage, isRemoteImageError, REMOTE_IMAGE_MAX_BYTES } from './remote-image';

/** An image a user chose to load from model output: raster types only, 10 MB at most, behind the SSRF check. */

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const MB = 1024 * 1024;

const site = localSite((req, res) => {
  const url = req.url ?? '/';
  if (url === '/cat.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
  else if (url === '/exactly-10mb.png') res.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(10 * MB - PNG.length)]));
  else if (url === '/over-10mb.png') res.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(10 * MB + 1 - PNG.length)]));
  else if (url === '/drawing.svg')
    res.writeHead(200, { 'Content-Type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  else res.writeHead(404).end();
});

function deps() {
  const now = () => 1_000_000;
  return {
    policy: site.policy([80, site.port]),
    pacer: createHostPacer(memoryHosts(), now, {}, { minGapMs: 0, perMinute: 60, perHour: 900, perDay: 8000 }),
    now,
  };
}

const load = (path: string, host = 'public.example') =>
  fetchRemoteImage(`http://${host}:${site.port}${path}`, deps(), new AbortController().signal);

async function refused(path: string, message: RegExp, host?: string) {
  await assert.rejects(load(path, host), (err: unknown) => isRemoteImageError(err) && message.test((err as Error).message));
}

test('a PNG comes back with its type and bytes', async () => {
  const image = await load('/cat.png');
  assert.equal(image.type, 'image/png');
  assert.deepEqual(image.bytes, PNG);
});

test('10 MB is the limit: exactly 10 MB loads, one byte more is refused', async () => {
  assert.equal(REMOTE_IMAGE_MAX_BYTES, 10 * MB);
  assert.equal((await load('/exactly-10mb.png')).bytes.length, 10 * MB);
  await refused('/over-10mb.png', /^the image is larger than 10 MB$/);
});

test('an SVG (it could carry script) is not an image here', async () => {
  await refused('/drawing.svg', /^what came back is not a PNG, JPEG, GIF, WebP or AVIF image$/);
});

test('the URL check’s refusals and the site’s errors come back as the image’s error', async () => {
  await refused('/cat.png', /./, 'router.example');
  await refused('/missing.png', /404/);
});
