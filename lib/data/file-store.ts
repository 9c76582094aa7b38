import type { Awaitable } from '@/lib/shared/awaitable';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FileKind } from '@/lib/contract/statuses';

/**
 * The stored files, and the one place that knows where they are: DATA_DIR/files, each file
 * named by the SHA-256 of its bytes in a folder of its first two hex digits (the same file
 * sent twice is kept once), a PDF's or Word file's extracted text beside it as <sha256>.txt,
 * and a tmp/ folder on the same disk for what is still arriving, so placing it is a rename.
 * Uploads, the tools, the download route, export, import and deletion all go through it.
 */

export type { FileKind };

/** A stored file's bytes as they came, or the whole text read from them. */
export type FilePart = 'original' | 'text';

/** Whether a file's text was extracted from it and is kept beside it as <sha256>.txt. */
export const hasExtractedText = (kind: FileKind) => kind === 'pdf' || kind === 'docx' || kind === 'sheet' || kind === 'audio';

/** A stored file opened for reading: its size as it is now, and a descriptor the caller closes or streams. */
export type OpenedFile = { fd: number; size: number };

const SHA256 = /^[0-9a-f]{64}$/;

export class FileStore {
  /** The store of a data folder. */
  static of(dataDir: string): FileStore {
    const root = path.join(dataDir, 'files');
    // The stored files are the owner's alone; an older Hearth left this folder open to every account.
    if (fs.existsSync(root)) fs.chmodSync(root, 0o700);
    return new FileStore(root);
  }

  constructor(readonly root: string) {}

  /**
   * Where a part of a file is on disk. The text of a text file is the file itself; an image has
   * none. Only a hash names a file: anything else would be a path into somewhere else.
   */
  pathOf(sha256: string, part: FilePart = 'original', kind: FileKind = 'text'): string {
    const found = this.locate(sha256, part, kind);
    if (found === null) throw new Error(`not a SHA-256 file name: ${sha256.slice(0, 80)}`);
    return found;
  }

  /** The path, or null for a name that is not a hash (a row can say anything): no such file is stored. */
  private locate(sha256: string, part: FilePart, kind: FileKind = 'text'): string | null {
    if (!SHA256.test(sha256)) return null;
    const original = path.join(this.root, sha256.slice(0, 2), sha256);
    return part === 'text' && hasExtractedText(kind) ? `${original}.txt` : original;
  }

  /**
   * Where a file's table is kept once it was read as one (lib/data/tables): its SQLite file and what
   * it holds (tables, columns, types, first rows), beside the file under the same hash.
   */
  tablePaths(sha256: string): { db: string; meta: string } {
    const original = this.pathOf(sha256);
    return { db: `${original}.table.db`, meta: `${original}.table.json` };
  }

  /** Where a file's whole text is (for the tools that read it line by line). */
  textPathOf(file: { sha256: string; kind: FileKind }): string {
    return this.pathOf(file.sha256, 'text', file.kind);
  }

  has(sha256: string, part: FilePart = 'original', kind?: FileKind): boolean {
    const found = this.locate(sha256, part, kind);
    return found !== null && fs.existsSync(found);
  }

  /** A new path in the store's tmp folder, for a file still arriving. */
  tempPath(prefix = ''): string {
    const dir = path.join(this.root, 'tmp');
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, `${prefix}${randomUUID()}`);
  }

  /**
   * Moves a finished temporary file into place under its hash. A file already stored stays as
   * it is (same hash, same bytes) and the temporary one goes. Says whether it was placed.
   */
  place(tmp: string, sha256: string, part: FilePart = 'original', kind?: FileKind): boolean {
    const target = this.pathOf(sha256, part, kind);
    if (fs.existsSync(target)) {
      fs.rmSync(tmp, { force: true });
      return false;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(tmp, target);
    return true;
  }

  /** Writes bytes under a hash, unless they are stored already. */
  write(sha256: string, bytes: string | Uint8Array, part: FilePart = 'original', kind?: FileKind): void {
    const target = this.pathOf(sha256, part, kind);
    if (fs.existsSync(target)) return;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }

  /** A file's bytes, or undefined when it is not stored. */
  read(sha256: string): Buffer | undefined {
    const found = this.locate(sha256, 'original');
    if (found === null) return undefined;
    try {
      return fs.readFileSync(found);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /** Opens a part for reading, once for its size, its first bytes and its stream; undefined when it is not stored. */
  open(sha256: string, part: FilePart = 'original', kind?: FileKind): OpenedFile | undefined {
    const found = this.locate(sha256, part, kind);
    if (found === null) return undefined;
    let fd: number;
    try {
      fd = fs.openSync(found, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      return { fd, size: fs.fstatSync(fd).size };
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  /** An opened file's first bytes (fewer when it is shorter). */
  static head(file: OpenedFile, bytes: number): Buffer {
    const head = Buffer.alloc(bytes);
    return head.subarray(0, fs.readSync(file.fd, head, 0, bytes, 0));
  }

  static close(file: OpenedFile): void {
    fs.closeSync(file.fd);
  }

  /** An opened file as a web stream from its start; the stream closes the descriptor. */
  static stream(file: OpenedFile): ReadableStream<Uint8Array> {
    return Readable.toWeb(fs.createReadStream('', { fd: file.fd, start: 0 })) as ReadableStream<Uint8Array>;
  }

  /**
   * Copies every stored file into another store (a backup), leaving out tmp/: what is still
   * arriving belongs to no message yet. Clones where the file system can.
   */
  copyInto(target: FileStore): { files: number; bytes: number } {
    let files = 0;
    let bytes = 0;
    if (!fs.existsSync(this.root)) return { files, bytes };
    for (const entry of fs.readdirSync(this.root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const from = path.join(entry.parentPath, entry.name);
      const relative = path.relative(this.root, from);
      if (relative.split(path.sep)[0] === 'tmp') continue;
      const to = path.join(target.root, relative);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to, fs.constants.COPYFILE_FICLONE);
      files += 1;
      bytes += fs.statSync(to).size;
    }
    return { files, bytes };
  }

  /** Deletes the files (and their extracted text) that nothing refers to any more. */
  async removeUnreferenced(sha256s: readonly string[], stillReferenced: (sha256: string) => Awaitable<boolean>): Promise<void> {
    for (const sha of new Set(sha256s)) {
      const original = this.locate(sha, 'original');
      if (original === null || (await stillReferenced(sha))) continue;
      fs.rmSync(original, { force: true });
      fs.rmSync(`${original}.txt`, { force: true });
      fs.rmSync(`${original}.table.db`, { force: true });
      fs.rmSync(`${original}.table.json`, { force: true });
    }
  }
}
