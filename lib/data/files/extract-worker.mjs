// Reads the text out of one PDF or Word file, in a process of its own (lib/data/files/
// extract.ts starts it with a heap limit and a deadline, and sends the file over IPC). Plain
// JavaScript so Node runs it as it is, under `next start` and in tests alike.
//
// Before the readers see a file, what it inflates to is measured, with the inflation itself cut
// off at the limit: a 182 KB .docx can hold 60 MB of XML, and a 254 KB PDF a 100 MB content
// stream. The readers build whole documents in memory from that, and the limit is what keeps
// them small; the worker's own memory limit and the deadline are the second line.
// @ts-check
import { inflateRawSync, inflateSync } from 'node:zlib';

/** @param {unknown} err */
const messageOf = (err) => (err instanceof Error ? err.message : String(err));

class TooLarge extends Error {}
class Unreadable extends Error {}

/**
 * Every entry of a zip (a .docx), inflated as a stream and counted; past `limit` bytes in all, TooLarge.
 * @param {Uint8Array} bytes @param {number} limit
 */
async function measureZip(bytes, limit) {
  const jszip = await import('jszip');
  const JSZip = jszip.default ?? jszip;
  let zip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (err) {
    throw new Unreadable(messageOf(err));
  }
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    await new Promise((resolve, reject) => {
      // JSZip's own stream of an entry (its typings leave it out): inflated a chunk at a time.
      const stream = /** @type {{ internalStream(type: 'uint8array'): NodeJS.EventEmitter & { pause(): void; resume(): void } }} */ (
        /** @type {unknown} */ (entry)
      ).internalStream('uint8array');
      stream
        .on('data', (/** @type {Uint8Array} */ chunk) => {
          total += chunk.length;
          if (total > limit) {
            stream.pause();
            reject(new TooLarge(`its parts inflate to more than ${limit / 1024 / 1024} MB`));
          }
        })
        .on('error', (/** @type {Error} */ err) => reject(new Unreadable(err.message)))
        .on('end', resolve)
        .resume();
    });
  }
}

/**
 * The Flate streams of a PDF that text is read from (images are never decoded for text, so
 * they do not count), each inflated by zlib with its output capped at what is left of `limit`.
 * A stream zlib cannot inflate is left to pdf.js (another filter first, or damage it may mend).
 * @param {Uint8Array} bytes @param {number} limit
 */
function measurePdf(bytes, limit) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const streams = /<<((?:[^<>]|<<(?:[^<>]|<<[^<>]*>>)*>>)*)>>\s*stream\r?\n/g;
  let total = 0;
  for (let m = streams.exec(text); m; m = streams.exec(text)) {
    const dict = m[1];
    if (!/\/FlateDecode\b/.test(dict) || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) break;
    streams.lastIndex = end;
    const data = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
    for (const inflate of [inflateSync, inflateRawSync]) {
      try {
        total += inflate(data, {
          maxOutputLength: limit - total + 1,
          finishFlush: 2 /* Z_SYNC_FLUSH: a stream may end without its checksum */,
        }).length;
        break;
      } catch (err) {
        if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge(`its text streams inflate to more than ${limit / 1024 / 1024} MB`);
      }
    }
    if (total > limit) throw new TooLarge(`its text streams inflate to more than ${limit / 1024 / 1024} MB`);
  }
}

/** @param {Uint8Array} bytes */
async function pdfText(bytes) {
  const { extractText, getDocumentProxy } = await import('unpdf');
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    // Pages apart, each after the first beginning with a form feed: a knowledge collection's
    // passages keep their page (lib/data/knowledge/chunk.ts), and the text reads the same otherwise.
    const { text } = await extractText(pdf, { mergePages: false });
    return (Array.isArray(text) ? text.map((page) => page.trim()).join('\n\f') : text).trim();
  } catch (err) {
    throw new Unreadable(messageOf(err));
  }
}

/** @param {Uint8Array} bytes */
async function docxText(bytes) {
  const loaded = await import('mammoth');
  const mammoth = loaded.default ?? loaded;
  try {
    return (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value.trim();
  } catch (err) {
    throw new Unreadable(messageOf(err));
  }
}

/**
 * What lib/data/files/extract.ts sends, and what it is answered.
 * @typedef {{ kind: 'pdf' | 'docx'; bytes: Uint8Array; limits: { inflatedBytes: number; textChars: number } }} ExtractJob
 * @typedef {{ ok: true; text: string } | { ok: false; tooLarge: boolean; message: string }} ExtractReply
 */

process.once('message', async (/** @type {ExtractJob} */ { kind, bytes, limits }) => {
  /** @type {ExtractReply} */
  let reply;
  try {
    if (kind === 'pdf') measurePdf(bytes, limits.inflatedBytes);
    else await measureZip(bytes, limits.inflatedBytes);
    const text = kind === 'pdf' ? await pdfText(bytes) : await docxText(bytes);
    if (text.length > limits.textChars) throw new TooLarge(`its text is longer than ${limits.textChars.toLocaleString('en')} characters`);
    reply = { ok: true, text };
  } catch (err) {
    reply = { ok: false, tooLarge: err instanceof TooLarge, message: messageOf(err) };
  }
  process.send?.(reply, () => process.exit(0));
});
