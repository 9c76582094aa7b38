import path from 'node:path';
import { fork } from 'node:child_process';
import { boundedQueue } from '@/lib/bounded-queue';
import { HearthError } from '@/lib/errors';

/**
 * Text out of documents: PDF (unpdf) and Word .docx (mammoth). Used for attached files
 * (lib/attachments/files.ts) and PDF pages read by fetch_url. Text files need no extraction:
 * they are their own text.
 *
 * A document is small on the wire and can be huge inside (a 182 KB .docx held 60 MB of XML and
 * took the server to 4 GB; a 254 KB PDF's one content stream took 15 s of the main thread), so
 * each is read in a process of its own (extract-worker.mjs), never on the thread that answers
 * requests, and bounded four ways: what it inflates to (measured while inflating, cut off at
 * the limit), the text it gives, the reader's heap, and time. Past any of them the answer is a
 * 413 that says which. A process, not a worker thread: a worker that reaches its heap limit can
 * still take the whole server down with it (V8's fatal out-of-memory), a child process only
 * itself. At most two documents are read at once.
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
const WORKER = [process.cwd(), 'lib', 'attachments', 'extract-worker.mjs'].join(path.sep);
const reading = boundedQueue(2);

type Reply = { ok: true; text: string } | { ok: false; tooLarge: boolean; message: string };

const OUT_OF_MEMORY = /heap out of memory|Allocation failed/;

function extract(kind: 'pdf' | 'docx', bytes: Uint8Array, limits: ExtractionLimits): Promise<string> {
  const what = kind === 'pdf' ? 'The PDF' : 'The Word document';
  return reading(
    () =>
      new Promise<string>((resolve, reject) => {
        // Plain node (not the parent's loaders and flags), with its own heap limit; the file goes over IPC.
        const reader = fork(WORKER, [], {
          execArgv: [`--max-old-space-size=${limits.memoryMb}`],
          serialization: 'advanced',
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        });
        // Whether V8 said it ran out of heap. Its line comes before a native stack trace of any
        // length, so it is looked for as stderr arrives (across a chunk's edge), not in a tail kept.
        let stderr = '';
        let outOfMemory = false;
        reader.stderr?.on('data', (c: Buffer) => {
          stderr = (stderr + c.toString()).slice(-2000);
          outOfMemory ||= OUT_OF_MEMORY.test(stderr);
        });
        let settled = false;
        const settle = (f: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reader.kill('SIGKILL');
          f();
        };
        const timer = setTimeout(
          () =>
            settle(() =>
              reject(
                new HearthError('too_large', `${what} took longer than ${limits.timeMs / 1000} s to read; it is too large or too complex.`),
              ),
            ),
          limits.timeMs,
        );
        reader.once('message', (reply: Reply) =>
          settle(() => {
            if (reply.ok) resolve(reply.text);
            else if (reply.tooLarge) reject(new HearthError('too_large', `${what} is too large to read: ${reply.message}.`));
            else reject(new HearthError('unsupported_type', `${what} could not be read (${reply.message}).`));
          }),
        );
        reader.once('error', (err) =>
          settle(() => reject(new HearthError('unsupported_type', `${what} could not be read (${err.message}).`))),
        );
        // 'close', not 'exit': the last of stderr (where V8 says it ran out of heap) can still be
        // on its way when the process has exited; 'close' comes once its streams are read to the end.
        reader.once('close', (code, signal) =>
          settle(() =>
            reject(
              outOfMemory
                ? new HearthError('too_large', `${what} is too large to read: it needs more than ${limits.memoryMb} MB of memory.`)
                : new HearthError('unsupported_type', `${what} could not be read (its reader stopped: ${signal ?? `code ${code}`}).`),
            ),
          ),
        );
        reader.send({ kind, bytes, limits: { inflatedBytes: limits.inflatedBytes, textChars: limits.textChars } });
      }),
  );
}

export function pdfText(bytes: Uint8Array, limits: ExtractionLimits = EXTRACTION_LIMITS): Promise<string> {
  return extract('pdf', bytes, limits);
}

export function docxText(bytes: Uint8Array, limits: ExtractionLimits = EXTRACTION_LIMITS): Promise<string> {
  return extract('docx', bytes, limits);
}
