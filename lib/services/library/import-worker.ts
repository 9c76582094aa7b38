import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { openStoreAt } from '@/db/open';
import { FileStore } from '@/lib/data/file-store';
import { isHearthError } from '@/lib/shared/errors';
import { applyImport } from './apply-import';
import { stageImport } from './import';
import type { ImportJob, ImportJobReply } from './import-job';

/**
 * One import, in a worker thread (lib/services/library/import-job.ts starts it): the file the request
 * brought is read, checked and staged here, then applied in one transaction on this thread's
 * own connection to the database. Parsing a million conversations or a zip's directory never
 * runs on the thread that answers requests.
 */

const job = workerData as ImportJob;

async function run(): Promise<ImportJobReply> {
  // The worker's own connection to the library (on PostgreSQL, a small pool of its own).
  const store = await openStoreAt(job.place, { maxBytes: job.maxDbBytes, connections: 2 });
  try {
    const files = new FileStore(job.filesRoot);
    const staged = await stageImport(fs.createReadStream(job.body, { highWaterMark: 1 << 20 }), {
      files,
      maxBytes: job.maxBytes,
      knownAttachment: (sha256) => store.attachmentByHash(sha256),
    });
    return { ok: true, summary: await applyImport(store, staged, files) };
  } finally {
    await store.close();
  }
}

run().then(
  (reply) => parentPort!.postMessage(reply),
  (err: unknown) =>
    parentPort!.postMessage(
      isHearthError(err)
        ? ({ ok: false, code: err.code, message: err.message } satisfies ImportJobReply)
        : ({ ok: false, code: 'internal', message: String((err as Error)?.stack ?? err) } satisfies ImportJobReply),
    ),
);
