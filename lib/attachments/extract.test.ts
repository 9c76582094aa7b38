import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HearthError } from '@/lib/errors';
import { tinyPdf } from '@/lib/testing/pdf';
import { decodeText, extractText, MAX_FILE_CHARS } from './extract';

test('text and code are read by content, with CRLF and BOM normalised', async () => {
  const r = await extractText({ bytes: new TextEncoder().encode('\uFEFFline 1\r\nline 2'), name: 'notes.weird', mime: '' });
  assert.equal(r.kind, 'text');
  assert.equal(r.text, 'line 1\nline 2');
  assert.equal(r.sha256.length, 64);
});

test('a PDF is read through unpdf', async () => {
  const r = await extractText({ bytes: tinyPdf(), name: 'invoice.pdf', mime: 'application/pdf' });
  assert.equal(r.kind, 'pdf');
  assert.match(r.text, /Invoice total 42 EUR/);
});

test('binary files are refused with 415; long text is cut with a note', async () => {
  await assert.rejects(extractText({ bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), name: 'a.png', mime: 'image/png' }), (e: unknown) => e instanceof HearthError && e.code === 'unsupported_type');
  assert.equal(decodeText(new Uint8Array([0xff, 0xfe, 0x41])), null);
  const long = await extractText({ bytes: new TextEncoder().encode('a'.repeat(MAX_FILE_CHARS + 10)), name: 'big.txt', mime: 'text/plain' });
  assert.equal(long.truncated, true);
  assert.match(long.text, /cut here/);
});
