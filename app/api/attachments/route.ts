import { randomUUID } from 'node:crypto';
import { extractText, MAX_FILE_BYTES } from '@/lib/attachments/extract';
import { handle, json, otherMethods, readBodyCapped } from '@/lib/api/http';
import { HearthError } from '@/lib/errors';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** Multipart overhead allowed on top of the file itself. */
const FORM_OVERHEAD = 64 * 1024;

/** Uploads one file (multipart field `file`), keeps its text, and answers with its id for the next message. */
export function POST(request: Request) {
  return handle(async () => {
    const type = request.headers.get('content-type') ?? '';
    if (!/^multipart\/form-data\s*;/i.test(type)) {
      throw new HearthError('unsupported_type', 'Send the file as multipart/form-data in a field called "file".');
    }
    const body = await readBodyCapped(request, MAX_FILE_BYTES + FORM_OVERHEAD, `A file can be at most ${MAX_FILE_BYTES / 1024 / 1024} MB.`);
    let form: FormData;
    try {
      form = await new Response(body, { headers: { 'Content-Type': type } }).formData();
    } catch {
      throw new HearthError('bad_request', 'The upload could not be read as a form.');
    }
    const file = form.get('file');
    if (!(file instanceof File)) throw new HearthError('bad_request', 'file: missing (send the file in a field called "file").');
    const name = file.name.replace(/[\u0000-\u001f/\\]/g, '_').slice(0, 200) || 'file';
    const bytes = new Uint8Array(await file.arrayBuffer());
    const extracted = await extractText({ bytes, name, mime: file.type });
    const mime = file.type || (extracted.kind === 'pdf' ? 'application/pdf' : 'text/plain');
    const row = getRuntime().store.insertAttachment({ id: randomUUID(), name, mime, size: bytes.length, sha256: extracted.sha256, text: extracted.text, now: Date.now() });
    return json({ id: row.id, name: row.name, mime: row.mime, size: row.size, sha256: row.sha256, chars: row.text.length }, 201);
  });
}
