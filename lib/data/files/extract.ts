import path from 'node:path';
import { boundedQueue } from '@/lib/shared/bounded-queue';
import { HearthError } from '@/lib/shared/errors';
import { runJob } from '@/lib/data/jobs/job';

/**
 * Text out of documents: PDF (unpdf) and Word .docx (mammoth). Used for attached files
 * (lib/data/files/receive.ts) and PDF pages read by fetch_url. Text files need no extraction:
 * they are their own text.
 *
 * A document is small on the wire and can be huge inside (a 182 KB .docx held 60 MB of XML and
 * took the server to 4 GB; a 254 KB PDF's one content stream took 15 s of the main thread), so
 * each is read in a process of its own (extract-worker.mjs), never on the thread that answers
 * requests, and bounded four ways: what it inflates to (measured while inflating, cut off at
 * the limit), the text it gives, the reader's heap, and time (lib/data/jobs/job.ts). Past any of
 * them the answer is a 413 that says which. At most two documents are read at once.
 */

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export type ExtractionLimits = {
  /** What a document's parts (a .docx) or text streams (a PDF) may inflate to, in all. */
  inflatedBytes: number;
  /** The longest text a document may give. */
  textChars: number;
  /** The reader's JavaScript heap. */
  memoryMb: number;
  /** How long one document may take. */
  timeMs: number;
};

export const EXTRACTION_LIMITS: ExtractionLimits = { inflatedBytes: 32 * 1024 * 1024, textChars: 5_000_000, memoryMb: 512, timeMs: 30_000 };

/**
 * Found from the working directory, as the migrations are: `next start` and the tests run in
 * the repository. Joined at run time so the bundler leaves the file alone (it would try to
 * bundle a script it sees passed to fork, and the script must run as it is).
 */
const WORKER = [process.cwd(), 'lib', 'data', 'files', 'extract-worker.mjs'].join(path.sep);
const reading = boundedQueue(2);

type Reply = { ok: true; text: string } | { ok: false; tooLarge: boolean; message: string };

async function extract(kind: 'pdf' | 'docx', bytes: Uint8Array, limits: ExtractionLimits): Promise<string> {
  const what = kind === 'pdf' ? 'The PDF' : 'The Word document';
  const end = await reading(() =>
    runJob<Reply>(
      WORKER,
      { kind, bytes, limits: { inflatedBytes: limits.inflatedBytes, textChars: limits.textChars } },
      { memoryMb: limits.memoryMb, timeMs: limits.timeMs },
    ),
  );
  switch (end.kind) {
    case 'answered':
      if (end.reply.ok) return end.reply.text;
      if (end.reply.tooLarge) throw new HearthError('too_large', `${what} is too large to read: ${end.reply.message}.`);
      throw new HearthError('unsupported_type', `${what} could not be read (${end.reply.message}).`);
    case 'late':
    case 'stopped':
      throw new HearthError('too_large', `${what} took longer than ${limits.timeMs / 1000} s to read; it is too large or too complex.`);
    case 'failed':
      throw new HearthError('unsupported_type', `${what} could not be read (${end.message}).`);
    case 'exited':
      throw end.outOfMemory
        ? new HearthError('too_large', `${what} is too large to read: it needs more than ${limits.memoryMb} MB of memory.`)
        : new HearthError('unsupported_type', `${what} could not be read (its reader stopped: ${end.how}).`);
  }
}

export function pdfText(bytes: Uint8Array, limits: ExtractionLimits = EXTRACTION_LIMITS): Promise<string> {
  return extract('pdf', bytes, limits);
}

export function docxText(bytes: Uint8Array, limits: ExtractionLimits = EXTRACTION_LIMITS): Promise<string> {
  return extract('docx', bytes, limits);
}
