import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasErrorCode } from '@/lib/shared/errors';
import { readBodyCapped } from './handle';

/** A request whose body arrives in `chunks` pieces of `size` bytes, counting how many were pulled. */
function chunked(chunks: number, size: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  const source: UnderlyingDefaultSource<Uint8Array> = {
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  };
  // highWaterMark 0: nothing is pulled until someone reads.
  const body = new ReadableStream<Uint8Array>(source, { highWaterMark: 0 });
  const request = new Request('http://hearth.test/x', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  return { request, pulled: () => pulled };
}

test('a body within the cap is read whole, byte for byte', async () => {
  const { request } = chunked(3, 100);
  const bytes = await readBodyCapped(request, 300, 'too big');
  assert.equal(bytes.length, 300);
  assert.ok(bytes.every((b) => b === 0x61));
});

test('a streamed body over the cap is refused while it is read, without reading the rest', async () => {
  const { request, pulled } = chunked(1000, 100);
  await assert.rejects(readBodyCapped(request, 250, 'too big'), (err: unknown) => hasErrorCode(err, 'too_large'));
  assert.ok(pulled() < 10, `pulled ${pulled()} chunks`);
});

test('a declared length over the cap is refused before any byte is read', async () => {
  const { request, pulled } = chunked(1, 10, { 'Content-Length': '301' });
  await assert.rejects(readBodyCapped(request, 300, 'too big'), (err: unknown) => hasErrorCode(err, 'too_large'));
  assert.equal(pulled(), 0);
});
