import { createHash } from 'node:crypto';
import { HearthError } from '@/lib/errors';

/**
 * Text from an uploaded file: plain text and code (detected by content, not by name), PDF
 * (unpdf) and DOCX (mammoth). Bytes are not kept: the text is what the model reads. Files
 * that are not text are refused with 415 and a sentence saying what Hearth can read.
 */

export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** A file's text beyond this is cut with a note, so one file cannot fill the context. */
export const MAX_FILE_CHARS = 40_000;

export type Extracted = { text: string; kind: 'text' | 'pdf' | 'docx'; truncated: boolean; sha256: string };

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function isPdf(bytes: Uint8Array) {
  return bytes.length > 4 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}
function isZip(bytes: Uint8Array) {
  return bytes.length > 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/** Text when the bytes are valid UTF-8 with no NUL and few control characters; null otherwise. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  const controls = (text.match(/[\u0000-\u0008\u000e-\u001f\u007f]/g) ?? []).length;
  if (text.length > 0 && controls / text.length > 0.05) return null;
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

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

export async function extractText({ bytes, name, mime }: { bytes: Uint8Array; name: string; mime: string }): Promise<Extracted> {
  if (bytes.length > MAX_FILE_BYTES) throw new HearthError('too_large', `${name} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  let text: string;
  let kind: Extracted['kind'];
  if (isPdf(bytes)) {
    text = await pdfText(bytes);
    kind = 'pdf';
  } else if (isZip(bytes) && (mime === DOCX_MIME || name.toLowerCase().endsWith('.docx'))) {
    const mammoth = await import('mammoth');
    try {
      text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value.trim();
    } catch (err) {
      throw new HearthError('unsupported_type', `The Word document could not be read (${(err as Error).message}).`);
    }
    kind = 'docx';
  } else {
    const decoded = decodeText(bytes);
    if (decoded === null) {
      throw new HearthError('unsupported_type', `${name} is not a file Hearth can read: it reads text, code, PDF and Word (.docx) files.`);
    }
    text = decoded;
    kind = 'text';
  }
  const truncated = text.length > MAX_FILE_CHARS;
  if (truncated) text = `${text.slice(0, MAX_FILE_CHARS)}\n[… cut here: the file has ${text.length} characters; only the first ${MAX_FILE_CHARS} are shown]`;
  return { text, kind, truncated, sha256 };
}
