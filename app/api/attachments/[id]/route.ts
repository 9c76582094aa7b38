import fs from 'node:fs';
import { Readable } from 'node:stream';
import { handle, otherMethods, parseId } from '@/lib/api/http';
import { idParam } from '@/lib/api/schemas';
import { filePath, filesDir } from '@/lib/attachments/files';
import { HearthError } from '@/lib/errors';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

type Params = { params: Promise<{ id: string }> };

/**
 * GET /api/attachments/:id: a stored file with its own content type. An image (as stored:
 * prepared, without metadata) is shown inline; anything else is a download, never rendered
 * by the browser (nosniff and the API's sandbox CSP come with every answer).
 */
export function GET(_request: Request, { params }: Params) {
  return handle(async () => {
    const id = parseId(idParam, (await params).id, 'attachment');
    const { store, config } = getRuntime();
    const row = store.attachmentFile({ id });
    if (!row) throw new HearthError('not_found', 'There is no attachment with that id.');
    const file = filePath(filesDir(config.DATA_DIR), row.sha256);
    if (!fs.existsSync(file)) throw new HearthError('not_found', 'The file of this attachment is no longer stored.');
    const image = row.kind === 'image';
    const disposition = `${image ? 'inline' : 'attachment'}; filename="${asciiName(row.name)}"; filename*=UTF-8''${encodeURIComponent(row.name)}`;
    return new Response(Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>, {
      headers: {
        'Content-Type': image ? row.mime : safeDownloadType(row.mime),
        'Content-Length': String(fs.statSync(file).size),
        'Content-Disposition': disposition,
        // The id names one stored file for good.
        'Cache-Control': 'private, max-age=31536000, immutable',
      },
    });
  });
}

/** A file name for the plain filename= parameter: ASCII, no quotes or separators. */
function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\/;]/g, '_').slice(0, 150) || 'file';
}

/** Text types as they were sent (with a charset); anything a browser might run is sent as bytes. */
function safeDownloadType(mime: string): string {
  if (/^(text\/(html|xml|javascript)|application\/(xhtml|javascript|ecmascript)|image\/svg)/i.test(mime)) return 'application/octet-stream';
  return /^text\//i.test(mime) && !/charset=/i.test(mime) ? `${mime}; charset=utf-8` : mime;
}
