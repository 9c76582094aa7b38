import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasErrorCode } from '@/lib/shared/errors';
import { docxInflatingTo, tinyDocx } from '@/lib/dev/testing/docx';
import { pdfInflatingTo, tinyPdf } from '@/lib/dev/testing/pdf';
import { docxText, EXTRACTION_LIMITS, pdfText } from './extract';

test('a PDF is read through unpdf', async () => {
  assert.match(await pdfText(tinyPdf()), /Invoice total 42 EUR/);
});

test('a Word file is read through mammoth, a paragraph a line', async () => {
  assert.equal(await docxText(tinyDocx('First point\nSecond point')), 'First point\n\nSecond point');
});

test('a broken PDF or Word file is refused as unreadable (415), not a crash', async () => {
  await assert.rejects(pdfText(new TextEncoder().encode('%PDF-1.4 but nothing else')), (e: unknown) => hasErrorCode(e, 'unsupported_type'));
  await assert.rejects(docxText(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0])), (e: unknown) => hasErrorCode(e, 'unsupported_type'));
});

test('a Word file that inflates past the limit is a 413 found while inflating, read beside the main thread', async () => {
  const bomb = docxInflatingTo(60 * 1024 * 1024);
  assert.ok(bomb.length < 400 * 1024, `the bomb is small (${bomb.length} bytes)`);
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 1);
  try {
    await assert.rejects(
      docxText(bomb),
      (e: unknown) => hasErrorCode(e, 'too_large') && /inflate to more than 32 MB/.test((e as Error).message),
    );
  } finally {
    clearInterval(ticking);
  }
  assert.ok(ticks > 0, 'this thread went on meanwhile');
});

test('a PDF whose text stream inflates past the limit is a 413; under it, the same kind of PDF is read', async () => {
  await assert.rejects(
    pdfText(pdfInflatingTo(100 * 1024 * 1024)),
    (e: unknown) => hasErrorCode(e, 'too_large') && /text streams inflate to more than 32 MB/.test((e as Error).message),
  );
  assert.match(await pdfText(pdfInflatingTo(64 * 1024)), /Invoice total 42 EUR/);
  assert.equal(await docxText(docxInflatingTo(64 * 1024)).then((t) => t.slice(0, 3)), 'a\n\n');
});

test("the other bounds: the text produced, the reader's memory, and time, each a 413 that says which", async () => {
  const small = { ...EXTRACTION_LIMITS };
  await assert.rejects(
    docxText(tinyDocx('x'.repeat(2000)), { ...small, textChars: 1000 }),
    (e: unknown) => hasErrorCode(e, 'too_large') && /longer than 1,000 characters/.test((e as Error).message),
  );
  await assert.rejects(
    docxText(docxInflatingTo(24 * 1024 * 1024), { ...small, memoryMb: 16 }),
    (e: unknown) => hasErrorCode(e, 'too_large') && /more than 16 MB of memory/.test((e as Error).message),
  );
  await assert.rejects(
    pdfText(tinyPdf(), { ...small, timeMs: 1 }),
    (e: unknown) => hasErrorCode(e, 'too_large') && /longer than 0.001 s/.test((e as Error).message),
  );
});
