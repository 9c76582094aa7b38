import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { StorePlace } from '@/db/store';
import type { FileStore } from '@/lib/data/file-store';
import type { ImportSummary } from '@/lib/contract/responses';
import { asStorageFull, HearthError, type ErrorCode } from '@/lib/shared/errors';
import { boundedQueue } from '@/lib/shared/bounded-queue';

/**
 * POST /api/import off the request's thread. The body is written to a temporary file as it
 * arrives (bytes only: nothing is parsed here, and HEARTH_MAX_IMPORT_MB is counted as it
 * comes); then a worker thread (import-worker.ts) reads, checks and stages it and applies it
 * in one transaction on a connection of its own, and answers with the summary. The server's
 * own thread meanwhile only moves bytes, so it answers everything else (health within a
 * second) however large the import. One import runs at a time; another waits its turn.
 *
 * While the worker's transaction is open, a write from the server's own connection (a turn's
 * events) waits for it, as any SQLite writer waits for another.
 */

export type ImportJob = { body: string; place: StorePlace; maxDbBytes?: number; filesRoot: string; maxBytes: number };
export type ImportJobReply = { ok: true; summary: ImportSummary } | { ok: false; code: ErrorCode; message: string };

/** The worker's heap: the import holds one conversation (at most a 100 MB entry) and the zip it reads. */
const WORKER_HEAP_MB = 1024;

const oneAtATime = boundedQueue(1);

/** Writes the body to `to`, refusing it (413) past `maxBytes`. */
async function receive(body: AsyncIterable<Uint8Array>, to: string, maxBytes: number): Promise<void> {
  const out = fs.createWriteStream(to);
  let bytes = 0;
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > maxBytes)
        throw new HearthError('too_large', `The import is larger than ${Math.round(maxBytes / 1024 / 1024)} MB (HEARTH_MAX_IMPORT_MB).`);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}

/**
 * The worker: under `next start`, the bundle Next builds from import-worker.ts (it bundles a
 * `new Worker(new URL(…))` as an entry of its own); run from source (tests, scripts under
 * tsx), the TypeScript file itself, with tsx's loader registered in the worker first.
 */
function startWorker(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./import-worker.ts', import.meta.url), options);
  const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'import-worker.ts');
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

function inWorker(job: ImportJob): Promise<ImportSummary> {
  return new Promise((resolve, reject) => {
    const worker = startWorker({ workerData: job, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let answered = false;
    worker.once('message', (reply: ImportJobReply) => {
      answered = true;
      if (reply.ok) resolve(reply.summary);
      else reject(reply.code === 'internal' ? new Error(reply.message) : new HearthError(reply.code, reply.message));
    });
    worker.once('error', (err: Error & { code?: string }) => {
      answered = true;
      reject(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new HearthError(
              'too_large',
              `This import needs more than ${WORKER_HEAP_MB} MB of memory to read, which Hearth does not give it.`,
            )
          : err,
      );
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the import's worker stopped (code ${code}) without an answer`));
    });
  });
}

export function runImport(
  body: AsyncIterable<Uint8Array>,
  { files, place, maxBytes, maxDbBytes }: { files: FileStore; place: StorePlace; maxBytes: number; maxDbBytes?: number },
): Promise<ImportSummary> {
  return oneAtATime(async () => {
    const tmp = files.tempPath('import-body-');
    try {
      await receive(body, tmp, maxBytes);
      return await inWorker({ body: tmp, place, maxDbBytes, filesRoot: files.root, maxBytes });
    } catch (err) {
      throw asStorageFull(err) ?? err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  });
}
