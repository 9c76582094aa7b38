import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import { HearthError } from '@/lib/shared/errors';
import { docxText, pdfText } from './extract';
import { prepareImage } from './image';
import type { FileStore } from '@/lib/data/file-store';
import type { ReceivedFile, UploadLimits } from './received';
import { storeStream } from './store-stream';
import { normalisePrefix, TextSniffer } from './text-sniffer';
import { ensureTable } from '@/lib/data/tables/attached';
import { tableFormat } from '@/lib/data/tables/tables';

/**
 * Receiving an attached file into the file store (file-store.ts), named by the SHA-256 of its
 * bytes (the same file sent twice is stored once). An upload streams to disk while it is hashed and checked,
 * so a 200 MB log never sits in memory. The whole text stays readable: a text file is its own
 * text; a PDF or Word file's extracted text is kept beside it as <sha256>.txt. The database
 * keeps the beginning of the text (TEXT_PREFIX_CHARS) for the model's context and the search
 * index; the tools read_attachment and grep_attachment read the rest.
 */

export { TEXT_PREFIX_CHARS, type ReceivedFile, type UploadLimits } from './received';

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

export function describeText(text: string): { prefix: string; chars: number; lines: number } {
  const sniffer = new TextSniffer();
  sniffer.push(Buffer.from(text));
  sniffer.end();
  return { prefix: normalisePrefix(sniffer.prefix), chars: sniffer.chars, lines: sniffer.lines };
}

/** A text file's beginning, characters and lines, read as it streams (a spreadsheet's extracted text can be large). */
async function describeTextFile(file: string): Promise<{ prefix: string; chars: number; lines: number }> {
  const sniffer = new TextSniffer();
  for await (const chunk of fs.createReadStream(file)) sniffer.push(chunk as Buffer);
  sniffer.end();
  return { prefix: normalisePrefix(sniffer.prefix), chars: sniffer.chars, lines: sniffer.lines };
}

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
