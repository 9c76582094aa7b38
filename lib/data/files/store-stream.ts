import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { HearthError } from '@/lib/shared/errors';
import { tableFormat } from '@/lib/data/tables/tables';
import { DOCX_MIME } from './extract';
import type { FileKind } from '@/lib/data/file-store';
import { ATTACHABLE_IMAGE_TYPES, imageType } from './image';
import { cleanMimeType } from './mime';
import type { ReceivedFile, UploadLimits } from './received';
import { TextSniffer } from './text-sniffer';

/** One uploaded file written to disk as it arrives: its kind told by its first bytes, hashed, checked, and refused in words. */

function sniffKind(first: Uint8Array, name: string, mime: string): FileKind | 'zip' | 'other-image' {
  const image = imageType(first);
  if (image) return ATTACHABLE_IMAGE_TYPES.has(image) ? 'image' : 'other-image';
  const head = Buffer.from(first.subarray(0, 5)).toString('latin1');
  if (head === '%PDF-') return 'pdf';
  const table = tableFormat(name, mime);
  if (first[0] === 0x50 && first[1] === 0x4b && first[2] === 0x03 && first[3] === 0x04) {
    if (table === 'xlsx' || table === 'ods') return 'sheet';
    return mime === DOCX_MIME || name.toLowerCase().endsWith('.docx') ? 'docx' : 'zip';
  }
  // A CSV in UTF-16 (Excel's "Unicode text"): its text is read out, as a spreadsheet's is.
  if (table === 'csv' && ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff))) return 'sheet';
  return 'text';
}

/** A spreadsheet's type as the page and the downloads name it, by what it is. */
function sheetMime(name: string, mime: string): string {
  const format = tableFormat(name, mime);
  return format === 'xlsx'
    ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
    : format === 'ods'
      ? 'application/vnd.oasis.opendocument.spreadsheet'
      : name.toLowerCase().endsWith('.tsv')
        ? 'text/tab-separated-values'
        : 'text/csv';
}

const IMAGE_NAME = /\.(png|jpe?g|webp|gif|avif|heic|bmp|tiff?)$/i;
// SVG is text (its source can be read and asked about), not an image here.
const claimsImage = (name: string, mime: string) => IMAGE_NAME.test(name) || /^image\/(?!svg)/i.test(mime);

export const READS =
  'Hearth reads text, code, logs, tables (CSV, TSV, Excel .xlsx, OpenDocument .ods), PDF and Word (.docx) files, and PNG, JPEG, WebP and GIF images.';

/**
 * Writes one file of the form to `tmp` while hashing and checking it. A refused file is still
 * read to its end (and dropped), so the form parser finishes and the client hears the answer.
 */
export function storeStream(
  stream: Readable & { truncated?: boolean },
  { name, mime, tmp, limits, archives = false }: { name: string; mime: string; tmp: string; limits: UploadLimits; archives?: boolean },
): Promise<Omit<ReceivedFile, 'prefix' | 'chars' | 'lines' | 'kind'> & { kind: FileKind | 'zip'; sniffer: TextSniffer }> {
  const hash = createHash('sha256');
  const sniffer = new TextSniffer();
  // Opened now, not lazily: a refused upload's file must exist before it is removed.
  const out = fs.createWriteStream(tmp, { fd: fs.openSync(tmp, 'w') });
  let size = 0;
  let kind: FileKind | 'zip' | null = null;
  let failure: unknown = null;
  // A CSV that turns out not to be UTF-8 (Excel on Windows writes Windows-1252) is read as a table, its text decoded.
  const csv = tableFormat(name, mime) === 'csv';
  const tooLarge = (max: number) => new HearthError('too_large', `${name} is larger than ${Math.round(max / 1024 / 1024)} MB.`);
  const unreadable = (what = 'not a file Hearth can read') => new HearthError('unsupported_type', `${name} is ${what}. ${READS}`);
  const fail = (err: unknown) => {
    failure ??= err;
    out.destroy();
    // The stream may be paused for a 'drain' that a destroyed file never sends: read on (and drop).
    stream.resume();
  };
  return new Promise((resolve, reject) => {
    // A write in flight when the file is refused ends with ERR_STREAM_DESTROYED; a full disk with
    // its own error. Either way it is this upload's failure, never an uncaught exception.
    out.on('error', (err) => fail(err));
    stream.on('data', (chunk: Buffer) => {
      if (failure) return;
      if (kind === null) {
        const sniffed = sniffKind(chunk, name, mime);
        // A file sent as an image must be one: its bytes decide, and text called photo.png is refused.
        if (sniffed !== 'image' && sniffed !== 'other-image' && claimsImage(name, mime))
          return fail(unreadable('not a PNG, JPEG, WebP or GIF image, whatever its name or type says'));
        if (sniffed === 'zip' && !archives) return fail(unreadable('an archive, not a file Hearth can read'));
        if (sniffed === 'other-image') return fail(unreadable('an image in a format Hearth does not take'));
        kind = sniffed;
      }
      size += chunk.length;
      // An archive is opened member by member, each within its own limit; the whole may be as large as a text file.
      if (kind !== 'text' && kind !== 'zip' && !(kind === 'sheet' && csv) && size > limits.maxDocumentBytes)
        return fail(tooLarge(limits.maxDocumentBytes));
      hash.update(chunk);
      if (kind === 'text') {
        sniffer.push(chunk);
        if (!sniffer.isText) {
          if (csv && !chunk.includes(0)) kind = 'sheet';
          else return fail(unreadable());
        }
      }
      if (!out.write(chunk)) {
        stream.pause();
        out.once('drain', () => stream.resume());
      }
    });
    stream.on('limit', () => fail(tooLarge(limits.maxTextBytes)));
    stream.on('error', (err) => fail(err));
    stream.on('end', () => {
      if (failure) return reject(failure);
      let fileKind: FileKind | 'zip' = kind === null ? 'text' : kind;
      if (fileKind === 'text') sniffer.end();
      if (fileKind === 'text' && !sniffer.isText && csv) fileKind = 'sheet';
      if (fileKind === 'text' && !sniffer.isText) {
        out.destroy();
        return reject(unreadable());
      }
      out.end((err?: Error | null) => {
        if (err) return reject(err);
        const declared =
          fileKind === 'pdf'
            ? 'application/pdf'
            : fileKind === 'docx'
              ? DOCX_MIME
              : fileKind === 'sheet'
                ? sheetMime(name, mime)
                : fileKind === 'image'
                  ? 'image/*'
                  : mime.startsWith('text/') || mime.includes('json') || mime.includes('xml')
                    ? cleanMimeType(mime, 'text/plain')
                    : 'text/plain';
        resolve({ name, mime: declared, size, sha256: hash.digest('hex'), kind: fileKind, sniffer });
      });
    });
  });
}
