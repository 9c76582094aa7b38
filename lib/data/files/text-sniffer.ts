import { TEXT_PREFIX_CHARS } from './received';

/** Counts lines and characters of text as it streams, keeps its beginning, and notices when it is not text. */
export class TextSniffer {
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

/** The kept beginning of a text: no BOM, line endings made \n, TEXT_PREFIX_CHARS at most. */
export function normalisePrefix(prefix: string): string {
  return prefix
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .slice(0, TEXT_PREFIX_CHARS);
}
