import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLlamaDouble, type LlamaDouble } from './llama-double';

/**
 * The double's vision, as llama-server v0.5.0 has it (tools/server/server-common.cpp,
 * oaicompat_chat_params_parse and handle_media; server-context.cpp for /props): image parts
 * are taken only with a projector, and refused with the server's own words without one.
 */

let withProjector: LlamaDouble;
let without: LlamaDouble;
before(async () => {
  [withProjector, without] = await Promise.all([startLlamaDouble({ vision: true }), startLlamaDouble()]);
});
after(async () => {
  await Promise.all([withProjector.close(), without.close()]);
});

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

async function ask(double: LlamaDouble, content: unknown) {
  const res = await fetch(`${double.url}/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content }] }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error?: { code: number; type: string; message: string }; choices?: unknown[] },
  };
}

test('/props reports modalities.vision from the projector', async () => {
  const props = async (d: LlamaDouble) => ((await (await fetch(`${d.baseUrl}/props`)).json()) as { modalities: unknown }).modalities;
  assert.deepEqual(await props(withProjector), { vision: true, video: false, audio: false });
  assert.deepEqual(await props(without), { vision: false, video: false, audio: false });
});

test('an image part: answered with a projector; without one, 500 with the server message', async () => {
  const parts = [
    { type: 'text', text: 'What is this?' },
    { type: 'image_url', image_url: { url: PNG } },
  ];
  assert.equal((await ask(withProjector, parts)).status, 200);
  const refused = await ask(without, parts);
  assert.equal(refused.status, 500);
  assert.deepEqual(refused.body.error, {
    code: 500,
    type: 'server_error',
    message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
  });
  assert.equal((await ask(without, [{ type: 'text', text: 'only words' }])).status, 200, 'text parts need no projector');
});

test('content parts are checked as handle_media checks them', async () => {
  const image = (url: string) => [{ type: 'image_url', image_url: { url } }];
  const cases: [unknown, number, string][] = [
    [image('data:image/png,notbase64'), 400, 'uri must be base64 encoded'],
    [image('data:text/plain;base64,AAAA'), 400, 'Invalid uri format: data:text/plain;base64'],
    [image('file:///etc/passwd'), 400, 'file:// URLs are not allowed unless --media-path is specified'],
    [image('https://example.com/x.png'), 500, 'Failed to download image'],
    [[{ type: 'video', url: 'x' }], 400, 'unsupported content[].type'],
    [42, 400, "Expected 'content' to be a string or an array"],
  ];
  for (const [content, status, message] of cases) {
    const answer = await ask(withProjector, content);
    assert.equal(answer.status, status, JSON.stringify(content));
    assert.equal(answer.body.error?.message, message);
  }
});
