import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { startLlamaDouble, type DoubleRequest, type LlamaDouble } from '@/e2e/double/llama-double';
import { FileStore } from '@/lib/data/file-store';
import { setRuntime } from '@/lib/services/runtime';
import * as attachmentRoute from './attachments/[id]/route';
import * as exportRoute from './export/route';
import { base, makeRuntime, newThread, params, req, rounds, sendWith, upload } from './harness';
import * as importRoute from './import/route';
import * as searchRoute from './search/route';

const filePath = (dir: string, sha256: string) => new FileStore(dir).pathOf(sha256);
const filesDir = (dataDir: string) => FileStore.of(dataDir).root;

/**
 * Images in the chat: uploads checked by their bytes, scaled once and stripped of metadata,
 * served back, sent to a vision model as image parts (and to a model without vision as a line
 * saying it cannot see them), carried by export and import, found by their file name.
 */

let vision: LlamaDouble;
let blind: LlamaDouble;
before(async () => {
  [vision, blind] = await Promise.all([startLlamaDouble({ vision: true }), startLlamaDouble()]);
});
after(async () => {
  setRuntime(undefined);
  await Promise.all([vision.close(), blind.close()]);
});

const canvas = (width: number, height: number, background = '#336699') => sharp({ create: { width, height, channels: 3, background } });

async function images() {
  const red = await canvas(40, 30, '#ff0000').png().toBuffer();
  const blue = await canvas(40, 30, '#0000ff').png().toBuffer();
  return {
    png: await canvas(3000, 2000)
      .png()
      .withExif({ IFD0: { Copyright: 'Someone', Make: 'SecretCam' } })
      .toBuffer(),
    // A phone photo: sideways pixels with an orientation tag, the camera and the place in EXIF.
    jpeg: await canvas(2400, 1800)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'SecretCam', Model: 'Phone 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
      .toBuffer(),
    webp: await canvas(800, 600).webp().toBuffer(),
    gif: await sharp([red, blue], { join: { animated: true } })
      .gif()
      .toBuffer(),
  };
}

type Uploaded = { id: string; name: string; mime: string; size: number; sha256: string; kind: string; width: number; height: number };

describe('uploads', () => {
  test('PNG, JPEG, WebP and GIF are taken by their bytes, scaled to 1536 px at most, upright, with no metadata kept', async () => {
    const runtime = await makeRuntime({ llamaUrl: blind.url });
    const dir = filesDir(runtime.config.DATA_DIR);
    const made = await images();
    const cases: [string, Buffer, string, string, number, number][] = [
      ['chart.png', made.png, 'image/png', 'image/png', 1536, 1024],
      ['photo.jpg', made.jpeg, 'image/jpeg', 'image/jpeg', 1152, 1536],
      ['small.webp', made.webp, 'image/webp', 'image/webp', 800, 600],
      // A GIF's first frame, as PNG; sent with a wrong type on purpose: the bytes decide.
      ['anim.gif', made.gif, 'application/octet-stream', 'image/png', 40, 30],
    ];
    for (const [name, bytes, sentType, storedType, width, height] of cases) {
      const up = await upload(name, bytes, sentType);
      assert.equal(up.status, 201, `${name}: ${JSON.stringify(up.body)}`);
      const body = up.body as Uploaded;
      assert.deepEqual(
        { kind: body.kind, mime: body.mime, width: body.width, height: body.height },
        { kind: 'image', mime: storedType, width, height },
        name,
      );
      const stored = fs.readFileSync(filePath(dir, body.sha256));
      assert.equal(stored.length, body.size, name);
      const meta = await sharp(stored).metadata();
      assert.deepEqual([meta.width, meta.height], [width, height], `${name}: the stored file is the scaled one`);
      assert.equal(meta.exif, undefined, `${name}: no EXIF kept`);
      assert.equal(meta.xmp, undefined, `${name}: no XMP kept`);
      assert.ok(!stored.includes(Buffer.from('SecretCam')), `${name}: the camera is not in the bytes`);
      assert.equal(meta.pages ?? 1, 1, `${name}: one frame`);
      assert.ok(
        !fs.existsSync(filePath(dir, (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'))),
        `${name}: the original bytes are not kept`,
      );
    }
  });

  test('a file that claims to be an image but is not is 415, whatever its name or type; an unknown image type too', async () => {
    await makeRuntime({ llamaUrl: blind.url });
    const fakes: [string, Buffer, string][] = [
      ['photo.png', Buffer.from('not an image at all, just words'), 'image/png'],
      ['broken.png', Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 7)]), 'image/png'],
      ['notes.txt', Buffer.from('plain text sent as a JPEG'), 'image/jpeg'],
      ['pic.avif', Buffer.concat([Buffer.from([0, 0, 0, 0x1c]), Buffer.from('ftypavif'), Buffer.alloc(100)]), 'image/avif'],
    ];
    for (const [name, bytes, type] of fakes) {
      const up = await upload(name, bytes, type);
      assert.equal(up.status, 415, `${name}: ${JSON.stringify(up.body)}`);
      assert.equal((up.body as { error: { code: string } }).error.code, 'unsupported_type');
    }
    const svg = await upload('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml');
    assert.equal(svg.status, 201, 'an SVG is text: its source can be read');
  });

  test('GET /api/attachments/:id serves the stored file: an image inline, anything else as a download, nosniff by the app', async () => {
    await makeRuntime({ llamaUrl: blind.url });
    const image = (await upload('chart.png', (await images()).webp, 'image/webp')).body as Uploaded;
    const res = await attachmentRoute.GET(req('GET', `/api/attachments/${image.id}`), params({ id: image.id }));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/webp');
    assert.match(res.headers.get('content-disposition') ?? '', /^inline; filename="chart.png"/);
    assert.equal(Buffer.from(await res.arrayBuffer()).length, image.size);
    const noText = await attachmentRoute.GET(req('GET', `/api/attachments/${image.id}?part=text`), params({ id: image.id }));
    assert.equal(noText.status, 400, 'an image has no text to open');
    const page = (await upload('page.html', '<script>alert(1)</script>', 'text/html')).body as Uploaded;
    const html = await attachmentRoute.GET(req('GET', `/api/attachments/${page.id}`), params({ id: page.id }));
    assert.equal(html.headers.get('content-type'), 'application/octet-stream', 'HTML is never served as a page');
    assert.match(html.headers.get('content-disposition') ?? '', /^attachment; filename="page.html"/);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      assert.equal((await attachmentRoute.GET(req('GET', `/api/attachments/${id}`), params({ id }))).status, 404, id);
    }
  });
});

const userContents = (double: LlamaDouble) =>
  rounds(double).map((r: DoubleRequest) => r.messages.filter((m) => m.role === 'user').map((m) => m.content));

describe('to the model', () => {
  test('a vision server gets the images as data URLs at their message, in the order attached, turn after turn', async () => {
    await makeRuntime({ llamaUrl: vision.url, env: { HEARTH_TITLES: 'first-words' } });
    const made = await images();
    const first = (await upload('one.png', made.png, 'image/png')).body as Uploaded;
    const second = (await upload('two.webp', made.webp, 'image/webp')).body as Uploaded;
    const threadId = await newThread();
    vision.requests.length = 0;
    const evs = await sendWith(threadId, 'What do these show?', [first.id, second.id]);
    assert.equal(evs.at(-1)?.type, 'done', JSON.stringify(evs.at(-1)));
    const asked = userContents(vision)[0].at(-1) as { type: string; text?: string; image_url?: { url: string } }[];
    assert.ok(Array.isArray(asked), 'the question went as parts');
    assert.deepEqual(
      asked.map((p) => p.type),
      ['text', 'image_url', 'image_url'],
    );
    assert.match(asked[0].text ?? '', /one\.png \(an image, 1536×1024 pixels\): shown to you/);
    assert.match(asked[0].text ?? '', /What do these show\?$/);
    assert.match(asked[1].image_url!.url, /^data:image\/png;base64,iVBORw0KGgo/);
    assert.match(asked[2].image_url!.url, /^data:image\/webp;base64,UklGR/);
    assert.equal(Buffer.from(asked[1].image_url!.url.split(',')[1], 'base64').length, first.size, 'the stored image, whole');

    vision.requests.length = 0;
    await sendWith(threadId, 'And the second one?', []);
    const later = userContents(vision)[0];
    assert.deepEqual(later[0], asked, 'the first message is sent again exactly as before, images included');
    assert.equal(typeof later.at(-1), 'string', 'the new question has no image');
  });

  test('a server without vision never gets an image part: the model is told, the turn goes on', async () => {
    await makeRuntime({ llamaUrl: blind.url, env: { HEARTH_TITLES: 'first-words' } });
    const image = (await upload('receipt.jpg', (await images()).jpeg, 'image/jpeg')).body as Uploaded;
    const threadId = await newThread();
    blind.requests.length = 0;
    const evs = await sendWith(threadId, 'What is the total on this receipt?', [image.id]);
    assert.equal(evs.at(-1)?.type, 'done', JSON.stringify(evs.at(-1)));
    for (const request of blind.requests) {
      for (const m of request.messages)
        assert.equal(typeof m.content === 'string' || m.content === null || m.content === undefined, true, 'no content parts at all');
    }
    const asked = userContents(blind)[0].at(-1) as string;
    assert.match(
      asked,
      /receipt\.jpg \(an image, 1152×1536 pixels\): attached here, but you cannot see it: this model server runs without a vision projector/,
    );
  });
});

describe('the library', () => {
  test('export and import carry images; search finds a thread by an image file name', async () => {
    const source = await makeRuntime({ llamaUrl: blind.url, env: { HEARTH_TITLES: 'first-words' } });
    const image = (await upload('holiday-beach-sunset.png', (await images()).png, 'image/png')).body as Uploaded;
    const threadId = await newThread();
    await sendWith(threadId, 'Look at this', [image.id]);
    const found = (await (await searchRoute.GET(req('GET', '/api/search?q=sunset'))).json()) as {
      results: { threadId: string; kind: string }[];
    };
    assert.deepEqual(found.results.find((r) => r.kind === 'attachment')?.threadId, threadId, JSON.stringify(found.results));
    const library = Buffer.from(await (await exportRoute.GET(req('GET', '/api/export'))).arrayBuffer());
    assert.ok(source.config.DATA_DIR);

    const target = await makeRuntime({ llamaUrl: blind.url });
    const res = await importRoute.POST(
      new Request(`${base}/api/import`, { method: 'POST', body: library, headers: { 'Content-Type': 'application/x-ndjson' } }),
    );
    assert.equal(res.status, 200, await res.clone().text());
    const copied = fs.readFileSync(filePath(filesDir(target.config.DATA_DIR), image.sha256));
    assert.equal(copied.length, image.size);
    const served = await attachmentRoute.GET(req('GET', `/api/attachments/${image.id}`), params({ id: image.id }));
    assert.equal(served.headers.get('content-type'), 'image/png');
    const meta = await target.store.attachmentFile({ id: image.id });
    assert.deepEqual([meta?.kind, meta?.width, meta?.height], ['image', 1536, 1024]);
  });
});
