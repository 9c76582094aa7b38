import { endpoints } from '@/lib/contract/endpoints';
import { on, serve } from '@/lib/http/serve';
import { FileStore, hasExtractedText, type FileKind, type OpenedFile } from '@/lib/data/file-store';
import { ATTACHABLE_IMAGE_TYPES, imageType } from '@/lib/data/files/image';
import { isMimeType } from '@/lib/data/files/mime';
import { HearthError } from '@/lib/shared/errors';
import { audioType } from '@/lib/services/speech';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * A stored file. It is shown inline only when its stored bytes are an image of one of the raster
 * types Hearth attaches and it is sent as that type, whatever its row says (an imported row can
 * say anything), or a kept recording whose bytes are audio (played in the page); everything else is a download with a safe type, never rendered by the browser
 * (nosniff and the API's sandbox CSP come with every answer). `?part=text`: the whole text Hearth
 * read from the file (what the model reads), for the page's file viewer.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.attachment, async ({ params: { id }, query, rt }) => {
    const { store, files } = rt;
    const { part } = query();
    const row = await store.attachmentFile({ id });
    if (!row) throw new HearthError('not_found', 'There is no attachment with that id.');
    if (part === 'text') return textOf(row, files);
    // One open for everything: the size, the first bytes that say what it is, and the stream.
    const file = files.open(row.sha256);
    if (!file) throw new HearthError('not_found', 'The file of this attachment is no longer stored.');
    let inline: string | null;
    try {
      inline = servedImageType(file) ?? (row.kind === 'audio' ? (audioType(FileStore.head(file, 16))?.type ?? null) : null);
    } catch (err) {
      FileStore.close(file);
      throw err;
    }
    const disposition = `${inline ? 'inline' : 'attachment'}; filename="${asciiName(row.name)}"; filename*=UTF-8''${encodeURIComponent(row.name)}`;
    return new Response(FileStore.stream(file), {
      headers: {
        'Content-Type': inline ?? safeDownloadType(row.mime),
        'Content-Length': String(file.size),
        'Content-Disposition': disposition,
        // The id names one stored file for good.
        'Cache-Control': 'private, max-age=31536000, immutable',
      },
    });
  }),
);

/**
 * The text read from a file, as plain UTF-8 shown inline (nosniff and the sandbox CSP keep it
 * text): a text file's own bytes, a PDF's, Word file's or spreadsheet's extracted text, a kept
 * recording's transcript. An image has none.
 */
function textOf(row: { sha256: string; kind: string; name: string }, files: FileStore): Response {
  if (row.kind === 'image') throw new HearthError('bad_request', 'An image has no text: open it as it is.');
  const kind = hasExtractedText(row.kind as FileKind) ? (row.kind as FileKind) : 'text';
  const file = files.open(row.sha256, 'text', kind);
  if (!file) throw new HearthError('not_found', 'The text of this attachment is no longer stored.');
  return new Response(FileStore.stream(file), {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(file.size),
      'Content-Disposition': `inline; filename="${asciiName(row.name)}.txt"`,
      'Cache-Control': 'private, max-age=31536000, immutable',
    },
  });
}

/** A file name for the plain filename= parameter: ASCII, no quotes or separators. */
function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]|["\\/;]/g, '_').slice(0, 150) || 'file';
}

/** The raster type the file's own first bytes show, when it is one Hearth shows inline. */
function servedImageType(file: OpenedFile): string | null {
  const type = imageType(FileStore.head(file, 32));
  return type && ATTACHABLE_IMAGE_TYPES.has(type) ? type : null;
}

/**
 * A download's type: plain text, data and documents as they were stored (text with a
 * charset); anything a browser might render or run, and anything that is not a well-formed
 * type, as bytes.
 */
function safeDownloadType(mime: string): string {
  if (!isMimeType(mime) || /^(text\/(html|xml|javascript)|application\/(xhtml|javascript|ecmascript|xml)|image\/|.*\+xml)/i.test(mime))
    return 'application/octet-stream';
  return /^text\//i.test(mime) && !/charset=/i.test(mime) ? `${mime}; charset=utf-8` : mime;
}
