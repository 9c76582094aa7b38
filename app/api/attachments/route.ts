import { randomUUID } from 'node:crypto';
import { receiveUpload } from '@/lib/attachments/files';
import { handle, json, otherMethods } from '@/lib/api/http';
import { HearthError } from '@/lib/errors';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** A PDF, Word file or image is read in memory, so it stays small; text files stream to disk. */
const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;
/** What an upload may carry; anything else is refused before it is read. */
const UPLOAD = { pattern: /^multipart\/form-data\s*;/i, name: 'multipart/form-data with the file in a field called "file"' };

/** Uploads one file (multipart field `file`), stores it, and answers with its id for the next message. */
export function POST(request: Request) {
  return handle(
    request,
    async () => {
      const type = request.headers.get('content-type') ?? '';
      if (!/^multipart\/form-data\s*;/i.test(type) || !request.body) {
        throw new HearthError('unsupported_type', 'Send the file as multipart/form-data in a field called "file".');
      }
      const { config, store, files } = getRuntime();
      const maxTextBytes = config.HEARTH_MAX_UPLOAD_MB * 1024 * 1024;
      if (Number(request.headers.get('content-length') ?? 0) > maxTextBytes + 64 * 1024) {
        throw new HearthError(
          'too_large',
          `A file can be at most ${config.HEARTH_MAX_UPLOAD_MB} MB (PDF and Word files ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB).`,
        );
      }
      const file = await receiveUpload({
        body: request.body,
        contentType: type,
        files,
        limits: { maxTextBytes, maxDocumentBytes: MAX_DOCUMENT_BYTES },
      });
      const row = store.insertAttachment({
        id: randomUUID(),
        name: file.name,
        mime: file.mime,
        size: file.size,
        sha256: file.sha256,
        text: file.prefix,
        kind: file.kind,
        chars: file.chars,
        lines: file.lines,
        width: file.width ?? null,
        height: file.height ?? null,
        now: Date.now(),
      });
      return json(
        {
          id: row.id,
          name: row.name,
          mime: row.mime,
          size: row.size,
          sha256: row.sha256,
          chars: row.chars,
          lines: row.lines,
          kind: row.kind,
          width: row.width,
          height: row.height,
        },
        201,
      );
    },
    UPLOAD,
  );
}
