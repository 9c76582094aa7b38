import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import { HearthError } from '@/lib/errors';
import { DOCX_MIME, docxText, pdfText } from './extract';
import { ATTACHABLE_IMAGE_TYPES, imageType, prepareImage } from './image';
import type { FileKind, FileStore } from './file-store';
import { cleanMimeType } from './mime';
import { ensureTable } from '@/lib/tables/attached';
import { tableFormat } from '@/lib/tables/tables';

/**
 * Receiving an attached file into the file store (file-store.ts), named by the SHA-256 of its
 * bytes (the same file sent twice is stored once). An upload streams to disk while it is hashed and checked,
 * so a 200 MB log never sits in memory. The whole text stays readable: a text file is its own
 * text; a PDF or Word file's extracted text is kept beside it as <sha256>.txt. The database
 * keeps the beginning of the text (TEXT_PREFIX_CHARS) for the model's context and the search
 * index; the tools read_attachment and grep_attachment read the rest.
 */

/** The beginning of a file's text that the database keeps. */
export const TEXT_PREFIX_CHARS = 40_000;

export type ReceivedFile = {
  name: string;
  mime: string;
  size: number;
  sha256: string;
  kind: FileKind;
  /** The first TEXT_PREFIX_CHARS of the text, line endings made \n. */
  prefix: string;
  chars: number;
  lines: number;
  /** An image's size after it was prepared (lib/attachments/image.ts). */
  width?: number;
  height?: number;
};

export type UploadLimits = {
  /** A text file may be this large (read as it streams). */
  maxTextBytes: number;
  /** A PDF, Word file or image may be this large (it is read in memory). */
  maxDocumentBytes: number;
};

/** A PDF, Word file or image is read in memory, so it stays small; text files stream to disk. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/**
 * An upload as both upload routes (a message's files, a collection's) take it: a multipart body
 * whose declared length is within the limits (refused before a byte is read), then
 * receiveUpload. `maxUploadMb` is HEARTH_MAX_UPLOAD_MB.
 */
export async function receiveUploadRequest(
  request: Request,
  args: { files: FileStore; maxUploadMb: number },
): Promise<ReceivedFile & { limits: UploadLimits }>;
export async function receiveUploadRequest(
  request: Request,
  args: { files: FileStore; maxUploadMb: number; archives: true },
): Promise<(ReceivedFile | ReceivedArchive) & { limits: UploadLimits }>;
export async function receiveUploadRequest(
  request: Request,
  { files, maxUploadMb, archives }: { files: FileStore; maxUploadMb: number; archives?: true },
): Promise<(ReceivedFile | ReceivedArchive) & { limits: UploadLimits }> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) {
    throw new HearthError('unsupported_type', 'Send the file as multipart/form-data in a field called "file".');
  }
  const limits: UploadLimits = { maxTextBytes: maxUploadMb * 1024 * 1024, maxDocumentBytes: MAX_DOCUMENT_BYTES };
  // The form's own parts (boundaries, headers) add a little to the file's size.
  if (Number(request.headers.get('content-length') ?? 0) > limits.maxTextBytes + 64 * 1024) {
    throw new HearthError(
      'too_large',
      `A file can be at most ${maxUploadMb} MB (PDF and Word files ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB).`,
    );
  }
  const upload = { body: request.body, contentType, files, limits };
  const received = archives ? await receiveUpload({ ...upload, archives }) : await receiveUpload(upload);
  return { ...received, limits };
}

/** Counts lines and characters of text as it streams, keeps its beginning, and notices when it is not text. */
class TextSniffer {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  isText = true;
  prefix = '';
  chars = 0;
  lines = 0;
  private controls = 0;
  private last = '';

  push(chunk: Uint8Array) {
    if (!this.isText) return;
    if (chunk.includes(0)) {
      this.isText = false;
      return;
    }
    try {
      this.add(this.decoder.decode(chunk, { stream: true }));
    } catch {
      this.isText = false;
    }
  }

  end() {
    if (!this.isText) return;
    try {
      this.add(this.decoder.decode());
    } catch {
      this.isText = false;
    }
    if (this.last && this.last !== '\n') this.lines++;
    // A few control characters happen in logs; many mean a binary file.
    if (this.chars > 0 && this.controls / this.chars > 0.05) this.isText = false;
  }

  private add(s: string) {
    if (!s) return;
    this.chars += s.length;
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) this.lines++;
    // eslint-disable-next-line no-control-regex -- counting control characters is the point
    this.controls += s.match(/[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/g)?.length ?? 0;
    if (this.prefix.length < TEXT_PREFIX_CHARS + 1) this.prefix += s.slice(0, TEXT_PREFIX_CHARS + 1 - this.prefix.length);
    this.last = s[s.length - 1];
  }
}

export function describeText(text: string): { prefix: string; chars: number; lines: number } {
  const sniffer = new TextSniffer();
  sniffer.push(Buffer.from(text));
  sniffer.end();
  return { prefix: normalisePrefix(sniffer.prefix), chars: sniffer.chars, lines: sniffer.lines };
}

function normalisePrefix(prefix: string): string {
  return prefix
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .slice(0, TEXT_PREFIX_CHARS);
}

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

/** A text file's beginning, characters and lines, read as it streams (a spreadsheet's extracted text can be large). */
async function describeTextFile(file: string): Promise<{ prefix: string; chars: number; lines: number }> {
  const sniffer = new TextSniffer();
  for await (const chunk of fs.createReadStream(file)) sniffer.push(chunk as Buffer);
  sniffer.end();
  return { prefix: normalisePrefix(sniffer.prefix), chars: sniffer.chars, lines: sniffer.lines };
}

const IMAGE_NAME = /\.(png|jpe?g|webp|gif|avif|heic|bmp|tiff?)$/i;
// SVG is text (its source can be read and asked about), not an image here.
const claimsImage = (name: string, mime: string) => IMAGE_NAME.test(name) || /^image\/(?!svg)/i.test(mime);

const READS =
  'Hearth reads text, code, logs, tables (CSV, TSV, Excel .xlsx, OpenDocument .ods), PDF and Word (.docx) files, and PNG, JPEG, WebP and GIF images.';

/**
 * Receives one file from a multipart body (field "file") and stores it. Refuses, with the
 * error the API answers: a body that is not a form (400), no file (400), a file Hearth cannot
 * read (415), a file over its limit (413). Nothing is left on disk by a refused upload.
 */
export async function receiveUpload(args: {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  files: FileStore;
  limits: UploadLimits;
}): Promise<ReceivedFile>;
/** With `archives`, a zip is taken too and handed back unopened (its path is the caller's to open and remove). */
export async function receiveUpload(args: {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  files: FileStore;
  limits: UploadLimits;
  archives: true;
}): Promise<ReceivedFile | ReceivedArchive>;
export async function receiveUpload(args: {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  files: FileStore;
  limits: UploadLimits;
  archives?: boolean;
}): Promise<ReceivedFile | ReceivedArchive> {
  const { files, limits } = args;
  let bb: ReturnType<typeof Busboy>;
  try {
    bb = Busboy({
      headers: { 'content-type': args.contentType },
      limits: { files: 1, fields: 20, parts: 40, fileSize: limits.maxTextBytes },
    });
  } catch {
    throw new HearthError('bad_request', 'The upload could not be read as a form.');
  }
  const tmp = files.tempPath();

  const upload: { file?: ReturnType<typeof storeStream> } = {};
  bb.on('file', (field, stream, filename, _encoding, mime) => {
    if (field !== 'file' || upload.file) return void stream.resume();
    upload.file = storeStream(stream, { name: cleanName(filename), mime, tmp, limits, archives: args.archives });
    upload.file.catch(() => undefined); // read below, once the form is parsed
  });
  try {
    const [parsed] = await Promise.allSettled([pipeline(Readable.fromWeb(args.body as import('node:stream/web').ReadableStream), bb)]);
    // The file's own refusal (415, 413) comes first: it is why the stream stopped.
    if (upload.file) await upload.file;
    if (parsed.status === 'rejected') throw new HearthError('bad_request', 'The upload could not be read as a form.');
    if (!upload.file) throw new HearthError('bad_request', 'file: missing (send the file in a field called "file").');
    const file = await upload.file;
    const { kind } = file;
    if (kind === 'zip') return { kind: 'zip', name: file.name, size: file.size, path: tmp };
    return await keep(files, tmp, { ...file, kind });
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** An archive taken whole (receiveUpload with `archives`): where it is until the caller removes it. */
export type ReceivedArchive = { kind: 'zip'; name: string; size: number; path: string };

/**
 * One file from bytes already in memory (a file out of an archive), received as an upload is:
 * checked, stored, its text extracted. Refused with the same errors.
 */
export async function receiveBytes(args: { bytes: Buffer; name: string; files: FileStore; limits: UploadLimits }): Promise<ReceivedFile> {
  const { files, limits } = args;
  const name = cleanName(args.name);
  if (args.bytes.length > limits.maxTextBytes)
    throw new HearthError('too_large', `${name} is larger than ${Math.round(limits.maxTextBytes / 1024 / 1024)} MB.`);
  const tmp = files.tempPath();
  try {
    const file = await storeStream(Readable.from([args.bytes]), { name, mime: '', tmp, limits });
    const { kind } = file;
    if (kind === 'zip') throw new HearthError('unsupported_type', `${name} is an archive inside an archive.`);
    return await keep(files, tmp, { ...file, kind });
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** A received file kept: an image as prepared, a spreadsheet with its table, a document with its text beside it. */
async function keep(
  files: FileStore,
  tmp: string,
  file: Omit<ReceivedFile, 'prefix' | 'chars' | 'lines'> & { sniffer: TextSniffer },
): Promise<ReceivedFile> {
  if (file.kind === 'image') {
    const image = await storeImage(files, tmp, withoutSniffer(file));
    fs.rmSync(tmp, { force: true });
    return image;
  }
  if (file.kind === 'sheet') return await storeSheet(files, tmp, withoutSniffer(file));
  // A document is read before it is kept: one refused as unreadable or too large leaves nothing behind.
  const text = file.kind === 'text' ? null : await (file.kind === 'pdf' ? pdfText : docxText)(new Uint8Array(fs.readFileSync(tmp)));
  files.place(tmp, file.sha256);
  // A CSV or TSV is read into its table now, once; one that is no table stays a text file.
  if (file.kind === 'text' && tableFormat(file.name, file.mime) === 'csv') await ensureTable(files, { ...file, kind: 'text' });
  if (text === null) {
    const { sniffer } = file;
    return { ...withoutSniffer(file), prefix: normalisePrefix(sniffer.prefix), chars: sniffer.chars, lines: sniffer.lines };
  }
  files.write(file.sha256, text, 'text', file.kind);
  return { ...withoutSniffer(file), ...describeText(text) };
}

/**
 * A spreadsheet (or a CSV not in UTF-8) is read into its table before it is kept, its text
 * extracted beside it; one that cannot be read is refused with the reason, and nothing kept.
 */
async function storeSheet(
  files: FileStore,
  uploaded: string,
  file: Omit<ReceivedFile, 'prefix' | 'chars' | 'lines'>,
): Promise<ReceivedFile> {
  const textTmp = files.tempPath('text-');
  try {
    const table = await ensureTable(files, { ...file, kind: 'sheet' }, { source: uploaded, textOut: textTmp }).catch((err: unknown) => {
      throw new HearthError('unsupported_type', `${file.name} could not be read as a table (${(err as Error).message}).`);
    });
    if (!table) throw new HearthError('unsupported_type', `${file.name} could not be read as a table.`);
    files.place(uploaded, file.sha256);
    if (fs.existsSync(textTmp)) files.place(textTmp, file.sha256, 'text', 'sheet');
    return { ...file, ...(await describeTextFile(files.textPathOf({ sha256: file.sha256, kind: 'sheet' }))) };
  } finally {
    fs.rmSync(textTmp, { force: true });
  }
}

/**
 * An image is kept only as prepared (upright, scaled, re-encoded without its metadata), under
 * the hash of the prepared bytes: the upload's own bytes never reach the files folder.
 */
async function storeImage(
  files: FileStore,
  uploaded: string,
  file: Omit<ReceivedFile, 'prefix' | 'chars' | 'lines'>,
): Promise<ReceivedFile> {
  const image = await prepareImage(fs.readFileSync(uploaded), file.name);
  const sha256 = createHash('sha256').update(image.bytes).digest('hex');
  files.write(sha256, image.bytes);
  return {
    ...file,
    mime: image.mime,
    size: image.bytes.length,
    sha256,
    prefix: '',
    chars: 0,
    lines: 0,
    width: image.width,
    height: image.height,
  };
}

function withoutSniffer<T extends { sniffer: unknown }>({ sniffer: _s, ...rest }: T) {
  return rest;
}

function cleanName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what a stored name must not keep
  return name.replace(/[\u0000-\u001f/\\]/g, '_').slice(0, 200) || 'file';
}

/**
 * Writes one file of the form to `tmp` while hashing and checking it. A refused file is still
 * read to its end (and dropped), so the form parser finishes and the client hears the answer.
 */
function storeStream(
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
