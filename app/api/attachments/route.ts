import { randomUUID } from 'node:crypto';
import { receiveUploadRequest } from '@/lib/data/files/files';
import { handle, json, otherMethods } from '@/lib/http/http';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** What an upload may carry; anything else is refused before it is read. */
const UPLOAD = { pattern: /^multipart\/form-data\s*;/i, name: 'multipart/form-data with the file in a field called "file"' };

/** Uploads one file (multipart field `file`), stores it, and answers with its id for the next message. */
export function POST(request: Request) {
  return handle(
    request,
    async () => {
      const { config, store, files } = getRuntime();
      const file = await receiveUploadRequest(request, { files, maxUploadMb: config.HEARTH_MAX_UPLOAD_MB });
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
