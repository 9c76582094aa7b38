import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { hasErrorCode } from '@/lib/shared/errors';
import { tinyDocx } from '@/lib/dev/testing/docx';
import { tinyPdf } from '@/lib/dev/testing/pdf';
import { makeTempDir } from '@/lib/dev/testing/temp-dir';
import { receiveUpload } from './receive';
import { FileStore, type FileKind } from '@/lib/data/file-store';

const filePath = (dir: string, sha256: string) => new FileStore(dir).pathOf(sha256);
const textPath = (dir: string, file: { sha256: string; kind: FileKind }) => new FileStore(dir).textPathOf(file);

const MB = 1024 * 1024;
const limits = { maxTextBytes: 2 * MB, maxDocumentBytes: 1 * MB };

/** A multipart body as a browser sends it. */
function form(parts: { field?: string; name: string; bytes: Uint8Array | string; type?: string }[]) {
  const data = new FormData();
  for (const p of parts)
    data.append(
      p.field ?? 'file',
      new Blob([typeof p.bytes === 'string' ? p.bytes : Buffer.from(p.bytes)], { type: p.type ?? 'application/octet-stream' }),
      p.name,
    );
  const request = new Request('http://hearth.test/api/attachments', { method: 'POST', body: data });
  return { body: request.body!, contentType: request.headers.get('content-type')! };
}

async function upload(dir: string, parts: Parameters<typeof form>[0], l = limits) {
  return receiveUpload({ ...form(parts), files: new FileStore(dir), limits: l });
}

const leftovers = (dir: string) => (fs.existsSync(path.join(dir, 'tmp')) ? fs.readdirSync(path.join(dir, 'tmp')) : []);

describe('receiving a file', () => {
  test('a text file is stored by the hash of its bytes; its beginning, characters and lines are counted', async () => {
    const dir = makeTempDir('hearth-files');
    const text = '\uFEFFline 1\r\nline 2\r\nline 3';
    const got = await upload(dir, [{ name: 'notes.log', bytes: text, type: 'text/plain' }]);
    const sha = createHash('sha256').update(text).digest('hex');
    // The byte-order mark is not a character of the text.
    assert.deepEqual(
      { ...got },
      {
        name: 'notes.log',
        mime: 'text/plain',
        size: Buffer.byteLength(text),
        sha256: sha,
        kind: 'text',
        prefix: 'line 1\nline 2\nline 3',
        chars: text.length - 1,
        lines: 3,
      },
    );
    assert.equal(fs.readFileSync(filePath(dir, sha), 'utf8'), text, 'kept byte for byte');
    assert.equal(textPath(dir, got), filePath(dir, sha), 'a text file is its own text');
    assert.deepEqual(leftovers(dir), []);
  });

  test('the same file twice is stored once; a long file keeps only its beginning in the row', async () => {
    const dir = makeTempDir('hearth-files');
    const long = 'x'.repeat(100_000) + '\n';
    const a = await upload(dir, [{ name: 'a.txt', bytes: long }]);
    const b = await upload(dir, [{ name: 'b.txt', bytes: long }]);
    assert.equal(a.sha256, b.sha256);
    assert.equal(fs.readdirSync(path.dirname(filePath(dir, a.sha256))).length, 1);
    // The row keeps the first 40,000 characters (the manual's figure).
    assert.equal(a.prefix.length, 40_000);
    assert.equal(a.chars, 100_001);
    assert.equal(a.lines, 1);
  });

  test('PDF and Word files are recognised by their bytes; their text is kept beside them', async () => {
    const dir = makeTempDir('hearth-files');
    const pdf = await upload(dir, [{ name: 'invoice.bin', bytes: tinyPdf() }]);
    assert.equal(pdf.kind, 'pdf');
    assert.equal(pdf.mime, 'application/pdf');
    assert.match(fs.readFileSync(textPath(dir, pdf), 'utf8'), /Invoice total 42 EUR/);
    assert.match(pdf.prefix, /Invoice total 42 EUR/);
    const docx = await upload(dir, [{ name: 'minutes.docx', bytes: tinyDocx('Ship on Friday.\nTell Ana.') }]);
    assert.equal(docx.kind, 'docx');
    assert.equal(fs.readFileSync(textPath(dir, docx), 'utf8'), 'Ship on Friday.\n\nTell Ana.');
    assert.equal(docx.lines, 3);
  });

  test('what Hearth cannot read is refused (415) and nothing stays on disk', async () => {
    const dir = makeTempDir('hearth-files');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const binaryTail = Buffer.concat([Buffer.from('looks like text at first\n'.repeat(100)), Buffer.from([0, 1, 2, 3])]);
    const zip = tinyDocx();
    for (const [name, bytes] of [
      ['pic.png', png],
      ['data.txt', binaryTail],
      ['archive.zip', zip],
      ['bad-utf8.txt', new Uint8Array([0x41, 0xff, 0xfe, 0x42])],
    ] as const) {
      await assert.rejects(upload(dir, [{ name, bytes }]), (e: unknown) => hasErrorCode(e, 'unsupported_type'), name);
    }
    assert.deepEqual(leftovers(dir), []);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f !== 'tmp'),
      [],
    );
  });

  test('over the limits: 413, for text and for documents alike; nothing stays on disk', async () => {
    const dir = makeTempDir('hearth-files');
    await assert.rejects(upload(dir, [{ name: 'big.log', bytes: 'y'.repeat(2 * MB + 1) }]), (e: unknown) => hasErrorCode(e, 'too_large'));
    const bigPdf = Buffer.concat([Buffer.from(tinyPdf()), Buffer.alloc(MB, 0x20)]);
    await assert.rejects(upload(dir, [{ name: 'big.pdf', bytes: bigPdf }]), (e: unknown) => hasErrorCode(e, 'too_large'));
    assert.deepEqual(leftovers(dir), []);
    // Exactly at the limit is fine.
    assert.equal((await upload(dir, [{ name: 'edge.log', bytes: 'z'.repeat(2 * MB) }])).size, 2 * MB);
  });

  test('a form without a file field is 400; a body that is not a form is 400', async () => {
    const dir = makeTempDir('hearth-files');
    await assert.rejects(upload(dir, [{ field: 'other', name: 'x.txt', bytes: 'x' }]), (e: unknown) => hasErrorCode(e, 'bad_request'));
    const broken = new Request('http://x', { method: 'POST', body: '--nope\r\ngarbage' });
    await assert.rejects(
      receiveUpload({ body: broken.body!, contentType: 'multipart/form-data; boundary=nope', files: new FileStore(dir), limits }),
      (e: unknown) => hasErrorCode(e, 'bad_request'),
    );
    await assert.rejects(
      receiveUpload({ body: broken.body!, contentType: 'multipart/form-data', files: new FileStore(dir), limits }),
      (e: unknown) => hasErrorCode(e, 'bad_request'),
    );
  });
});

test('files no attachment refers to any more are removed, with their extracted text', async () => {
  const dir = makeTempDir('hearth-files');
  const kept = await upload(dir, [{ name: 'a.txt', bytes: 'keep me' }]);
  const gone = await upload(dir, [{ name: 'b.pdf', bytes: tinyPdf('delete me') }]);
  await new FileStore(dir).removeUnreferenced([kept.sha256, gone.sha256], (sha) => sha === kept.sha256);
  assert.ok(fs.existsSync(filePath(dir, kept.sha256)));
  assert.ok(!fs.existsSync(filePath(dir, gone.sha256)));
  assert.ok(!fs.existsSync(textPath(dir, gone)));
});
