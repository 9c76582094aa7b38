import { HearthError } from '@/lib/shared/errors';
import { MAX_LINE_BYTES } from './format';

/** Splits a byte stream into lines, refusing a body over maxBytes. Each byte is looked at once. */
export class LineReader {
  private readonly source: AsyncIterator<Uint8Array>;
  /** Bytes of the line being read; only the last part can hold a line end not yet looked at. */
  private parts: Buffer[] = [];
  private partsBytes = 0;
  /** Where in the last part to look for a line end next. */
  private scanFrom = 0;
  private total = 0;

  constructor(
    body: AsyncIterable<Uint8Array>,
    private readonly maxBytes: number,
  ) {
    this.source = body[Symbol.asyncIterator]();
  }

  private async more(): Promise<boolean> {
    const next = await this.source.next();
    if (next.done) return false;
    this.total += next.value.byteLength;
    if (this.total > this.maxBytes)
      throw new HearthError('too_large', `The import is larger than ${Math.round(this.maxBytes / 1024 / 1024)} MB (HEARTH_MAX_IMPORT_MB).`);
    this.parts.push(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength));
    this.partsBytes += next.value.byteLength;
    this.scanFrom = 0;
    return true;
  }

  /** The next line without its end; null at the end of the body; 'too-long' past MAX_LINE_BYTES without a line end. */
  async line(): Promise<Buffer | null | 'too-long'> {
    for (;;) {
      const last = this.parts.at(-1);
      const at = last ? last.indexOf(10, this.scanFrom) : -1;
      if (last && at >= 0) {
        // A line that came whole in one chunk is as long as one that came in many.
        if (this.partsBytes - last.length + at > MAX_LINE_BYTES) return 'too-long';
        const line = Buffer.concat([...this.parts.slice(0, -1), last.subarray(0, at)]);
        const rest = last.subarray(at + 1);
        this.parts = rest.length ? [rest] : [];
        this.partsBytes = rest.length;
        this.scanFrom = 0;
        return line;
      }
      if (last) this.scanFrom = last.length;
      if (this.partsBytes > MAX_LINE_BYTES) return 'too-long';
      if (!(await this.more())) {
        if (this.partsBytes === 0) return null;
        const line = Buffer.concat(this.parts);
        this.parts = [];
        this.partsBytes = 0;
        return line;
      }
    }
  }

  /** Everything not yet read as a line (up to `limit` bytes, `what` naming the file past it): for a document that is not line-based. */
  async rest(limit: number, what = "A thread's JSON export"): Promise<Buffer> {
    do {
      if (this.partsBytes > limit) throw new HearthError('too_large', `${what} can be at most ${Math.round(limit / 1024 / 1024)} MB.`);
    } while (await this.more());
    const all = Buffer.concat(this.parts);
    this.parts = [];
    this.partsBytes = 0;
    return all;
  }

  /** Puts bytes back in front of what is left (a line read to see what the file is), to be read again. */
  unread(bytes: Buffer): void {
    // One part, looked through from its start: a line end in the bytes put back is found again.
    this.parts = [Buffer.concat([bytes, ...this.parts])];
    this.partsBytes = this.parts[0].length;
    this.scanFrom = 0;
  }

  /** Whether what is left starts with these bytes (a zip's signature), without reading past them. */
  async startsWith(prefix: Buffer): Promise<boolean> {
    while (this.partsBytes < prefix.length) if (!(await this.more())) break;
    const head = Buffer.concat(this.parts).subarray(0, prefix.length);
    return head.equals(prefix);
  }

  /** The first byte left that is not white space (a UTF-8 BOM counts as space), without reading past it; null at the end. */
  async firstSignificantByte(): Promise<number | null> {
    for (let seen = 0; ;) {
      const all = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
      for (; seen < all.length; seen++) {
        const b = all[seen];
        const bom = b === 0xef && all[seen + 1] === 0xbb && all[seen + 2] === 0xbf;
        if (bom) seen += 2;
        else if (b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) return b;
      }
      if (!(await this.more())) return null;
    }
  }

  /** What is left of the body as it comes, the bytes held back first: for a document read as it streams. */
  async *bytes(): AsyncGenerator<Buffer> {
    do {
      const held = this.parts;
      this.parts = [];
      this.partsBytes = 0;
      this.scanFrom = 0;
      yield* held;
    } while (await this.more());
  }
}
