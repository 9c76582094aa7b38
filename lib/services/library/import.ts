import { createHash } from 'node:crypto';
import { nestsDeeperThan, tooDeep } from '@/lib/shared/json-depth';
import fs from 'node:fs';
import { hasExtractedText, type FileKind, type FileStore } from '@/lib/data/file-store';
import { hasErrorCode, HearthError } from '@/lib/shared/errors';
import { describeIssue, headerSchema, LIBRARY_FORMAT, LIBRARY_VERSION, MAX_LINE_BYTES, recordSchema } from './format';
import { LineReader } from './line-reader';
import { RecordSpool } from './spool';
import { stageForeign } from './stage-foreign';
import type { ImportSummary } from '@/lib/contract/responses';

/**
 * POST /api/import: a library file (format.ts) or one thread's JSON export, applied all or
 * nothing. It happens in two steps:
 *
 * 1. Stage (async, as the body streams in): every line is parsed and checked with zod; files
 *    are decoded into temporary files and their SHA-256 checked; the checked records go to a
 *    temporary file. A broken, cut-off or foreign file stops here with a 400 naming the line
 *    and what is wrong, and nothing has been written to the library.
 * 2. Apply (one transaction): the records are read back and inserted, rows that
 *    are already there kept as they are; references are checked as they go (foreign keys, a
 *    tool call's turn in its thread); the files move into place. Any failure rolls the whole
 *    import back and removes the files it placed. The transaction holds the database's write lock
 *    (BEGIN IMMEDIATE), so no turn writes in between.
 */
import type { KnownAttachment, StagedFile, StagedImport } from './import-types';
export type { ImportStore, StagedImport } from './import-types';
export type { ImportSummary };

export const bad = (message: string) => new HearthError('bad_request', message);

/** A library file's fault, said as what the file is and that nothing changed, then where and what is wrong. */
export function inLibraryFile(err: unknown): unknown {
  if (!hasErrorCode(err, 'bad_request') || /^This /.test((err as Error).message)) return err;
  return bad(`This Hearth library file could not be imported, and nothing was changed: ${(err as Error).message}`);
}

function parseJson(bytes: Buffer, line: number): unknown {
  const text = bytes.toString('utf8');
  if (nestsDeeperThan(text)) throw bad(`line ${line}: ${tooDeep('it')}`);
  try {
    return JSON.parse(text);
  } catch {
    throw bad(`line ${line}: not JSON (is the file cut or changed?)`);
  }
}

const hasBom = (bytes: Buffer) => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;

/** Step 1: reads and checks the body, staging what it holds in the file store's tmp folder. */
export async function stageImport(
  body: AsyncIterable<Uint8Array>,
  { files, maxBytes, knownAttachment }: { files: FileStore; maxBytes: number; knownAttachment: KnownAttachment },
): Promise<StagedImport> {
  const reader = new LineReader(body, maxBytes);
  let first = await reader.line();
  if (first === null) throw bad('The file is empty.');
  if (first !== 'too-long' && hasBom(first)) first = first.subarray(3);
  let head: unknown = undefined;
  if (first !== 'too-long') {
    try {
      head = JSON.parse(first.toString('utf8'));
    } catch {
      // Not one line of JSON: a pretty-printed document, a list on one long line, or not JSON at all.
    }
  }
  if (head && typeof head === 'object' && (head as { type?: unknown }).type === LIBRARY_FORMAT) {
    const header = headerSchema.safeParse(head);
    if (!header.success) {
      throw bad(
        `This is a Hearth library file, but its first line is not as Hearth writes it (${describeIssue(header.error)}). Hearth expects {"type":"${LIBRARY_FORMAT}","version":${LIBRARY_VERSION},"exportedAt":<milliseconds since 1970>} there: export the library again, or put that line back as it was.`,
      );
    }
    if (header.data.version > LIBRARY_VERSION) {
      throw bad(
        `This library file is version ${header.data.version}; this Hearth reads version ${LIBRARY_VERSION}. Update Hearth to import it.`,
      );
    }
    return stageLibrary(reader, files).catch((err: unknown) => {
      throw inLibraryFile(err);
    });
  }
  // Everything else is another app's export or a thread's: its records are spooled a conversation at a time.
  const spool = new RecordSpool(files);
  try {
    if (first !== 'too-long') reader.unread(Buffer.concat([first, Buffer.from('\n')]));
    const source = await stageForeign(reader, spool, knownAttachment, head);
    spool.close();
    return { source, records: () => spool.records(), files: [], discard: () => spool.discard() };
  } catch (err) {
    spool.discard();
    throw err;
  }
}

async function stageLibrary(reader: LineReader, fileStore: FileStore): Promise<StagedImport> {
  const spool = new RecordSpool(fileStore);
  const files: StagedFile[] = [];
  const temporary: string[] = [];
  const discard = () => {
    spool.discard();
    for (const f of temporary) fs.rmSync(f, { force: true });
  };
  /** The files the attachments so far refer to, and how their text was read. */
  const attachments = new Map<string, FileKind>();
  let open: {
    sha256: string;
    part: 'original' | 'text';
    next: number;
    fd: number;
    hash: ReturnType<typeof createHash>;
    tmp: string;
  } | null = null;
  let count = 0;
  let line = 1;
  let ended = false;
  try {
    for (let bytes = await reader.line(); bytes !== null || !ended; bytes = await reader.line()) {
      if (bytes === null) {
        throw bad(`The file ends at line ${line} without its closing line: it was cut off (download or copy it again).`);
      }
      line++;
      if (bytes === 'too-long')
        throw bad(`line ${line}: longer than ${MAX_LINE_BYTES / 1024 / 1024} MB, which no line of a library file is`);
      if (bytes.toString('utf8').trim() === '') continue;
      if (ended) throw bad(`line ${line}: there is more after the closing line`);
      const value = parseJson(bytes, line) as { type?: unknown; records?: unknown };
      if (value?.type === 'end') {
        if (open) throw bad(`line ${line}: the file ${open.sha256} ends without its last chunk`);
        if (value.records !== count)
          throw bad(`line ${line}: the file says it has ${String(value.records)} records but ${count} came before it`);
        ended = true;
        continue;
      }
      const parsed = recordSchema.safeParse(value);
      if (!parsed.success) {
        const what = typeof value?.type === 'string' ? value.type.slice(0, 40) : 'record';
        throw bad(`line ${line} (${what}): ${describeIssue(parsed.error)}`);
      }
      count++;
      const r = parsed.data;
      if (r.type !== 'file') {
        if (open) throw bad(`line ${line}: the file ${open.sha256} ends without its last chunk`);
        if (r.type === 'attachment' || r.type === 'collection_file') attachments.set(r.sha256, r.kind);
        spool.write(line, r);
        continue;
      }
      if (open && (open.sha256 !== r.sha256 || open.part !== r.part))
        throw bad(`line ${line}: the file ${open.sha256} ends without its last chunk`);
      if (!open) {
        const kind = attachments.get(r.sha256);
        if (kind === undefined) throw bad(`line ${line}: a file comes before any attachment that refers to it`);
        if (r.part === 'text' && !hasExtractedText(kind)) throw bad(`line ${line}: only a PDF or Word file has extracted text`);
        if (files.some((f) => f.sha256 === r.sha256 && f.part === r.part)) throw bad(`line ${line}: the file ${r.sha256} comes twice`);
        if (r.chunk !== 0) throw bad(`line ${line}: chunk ${r.chunk} of the file ${r.sha256} comes without the chunks before it`);
        const tmp = fileStore.tempPath('import-');
        temporary.push(tmp);
        open = { sha256: r.sha256, part: r.part, next: 0, fd: fs.openSync(tmp, 'w'), hash: createHash('sha256'), tmp };
      }
      if (r.chunk !== open.next)
        throw bad(`line ${line}: chunk ${r.chunk} of the file ${r.sha256} comes out of order (expected ${open.next})`);
      const data = Buffer.from(r.data, 'base64');
      fs.writeSync(open.fd, data);
      open.hash.update(data);
      open.next++;
      if (r.last) {
        const done = open;
        open = null;
        fs.closeSync(done.fd);
        if (done.part === 'original' && done.hash.digest('hex') !== done.sha256) {
          throw bad(`line ${line}: the file ${done.sha256} does not match its SHA-256 (it was changed or cut)`);
        }
        files.push({ sha256: done.sha256, part: done.part, kind: attachments.get(done.sha256)!, tmp: done.tmp });
      }
    }
  } catch (err) {
    if (open) fs.closeSync(open.fd);
    discard();
    throw err;
  }
  spool.close();
  return {
    source: 'library',
    records: () => spool.records(),
    files,
    discard,
  };
}
