import { randomUUID } from 'node:crypto';
import { endpoints } from '@/lib/contract/endpoints';
import { receiveUploadRequest } from '@/lib/data/files/receive';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Uploads one file (multipart field `file`), stores it, and answers with its id for the next message. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.uploadAttachment, async ({ request, rt }) => {
    const { config, store, files } = rt;
    const file = await receiveUploadRequest(request, { files, maxUploadMb: config.HEARTH_MAX_UPLOAD_MB });
    const row = await store.insertAttachment({
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
    return reply(
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
  }),
);
