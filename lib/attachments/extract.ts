import { HearthError } from '@/lib/errors';

/**
 * Text out of documents: PDF (unpdf) and Word .docx (mammoth). Used for attached files
 * (lib/attachments/files.ts) and PDF pages read by fetch_url. Text files need no extraction:
 * they are their own text.
 */

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await extractText(pdf, { mergePages: true });
    return (Array.isArray(text) ? text.join('\n') : text).trim();
  } catch (err) {
    throw new HearthError('unsupported_type', `The PDF could not be read (${(err as Error).message}).`);
  }
}

export async function docxText(bytes: Uint8Array): Promise<string> {
  const mammoth = await import('mammoth');
  try {
    return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value.trim();
  } catch (err) {
    throw new HearthError('unsupported_type', `The Word document could not be read (${(err as Error).message}).`);
  }
}
