import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasErrorCode } from '@/lib/errors';
import { tinyDocx } from '@/lib/testing/docx';
import { tinyPdf } from '@/lib/testing/pdf';
import { docxText, pdfText } from './extract';

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
