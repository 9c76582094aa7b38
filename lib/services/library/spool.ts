import fs from 'node:fs';
import type { FileStore } from '@/lib/data/file-store';
import type { LibraryRecord } from './format';

/**
 * Checked records kept in a temporary JSON Lines file between staging an import (async, as the
 * body streams in) and applying it (one synchronous transaction), so that an import of any size
 * holds none of them in memory. Each record keeps where it came from (a line of a library file,
 * or a conversation of another app's list), for the refusal that names it.
 */
export class RecordSpool {
  readonly path: string;
  private readonly fd: number;
  private pending: string[] = [];
  private pendingChars = 0;
  private closed = false;

  constructor(files: FileStore) {
    this.path = `${files.tempPath('import-')}.jsonl`;
    this.fd = fs.openSync(this.path, 'w');
  }

  write(place: number, record: LibraryRecord): void {
    const line = `${JSON.stringify([place, record])}\n`;
    this.pending.push(line);
    this.pendingChars += line.length;
    // Written in blocks of about a megabyte: one write per record would be a system call each.
    if (this.pendingChars >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.pending.length) fs.writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
  }

  /** Ends writing (also when giving up: then discard follows). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.flush();
    } finally {
      fs.closeSync(this.fd);
    }
  }

  /** Reads the records back in order, synchronously (they are applied inside one transaction). */
  *records(): Generator<{ line: number; record: LibraryRecord }> {
    const fd = fs.openSync(this.path, 'r');
    try {
      const block = Buffer.alloc(1024 * 1024);
      let pending: Buffer[] = [];
      for (;;) {
        const n = fs.readSync(fd, block, 0, block.length, null);
        if (n === 0) break;
        let chunk = block.subarray(0, n);
        for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10)) {
          const text = Buffer.concat([...pending, chunk.subarray(0, end)]).toString('utf8');
          pending = [];
          chunk = chunk.subarray(end + 1);
          const [line, record] = JSON.parse(text) as [number, LibraryRecord];
          yield { line, record };
        }
        if (chunk.length) pending.push(Buffer.from(chunk));
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  discard(): void {
    this.close();
    fs.rmSync(this.path, { force: true });
  }
}
