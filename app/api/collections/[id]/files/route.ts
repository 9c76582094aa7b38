import { handle, json, otherMethods, parseId, readJson } from '@/lib/http/http';
import { receiveUploadRequest } from '@/lib/data/files/files';
import { addAttachmentToCollectionBody, idParam } from '@/lib/contract/requests';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** A file (multipart, field "file"; a zip of a folder adds each file in it), or JSON {attachmentId}. */
const FILE_OR_JSON = {
  pattern: /^(multipart\/form-data\s*;|application\/json\s*(;|$))/i,
  name: 'multipart/form-data with the file in a field called "file", or application/json {attachmentId}',
};

type Params = { params: Promise<{ id: string }> };

/** POST /api/collections/:id/files → 201 {files, skipped}: the files added, queued for indexing. */
export function POST(request: Request, { params }: Params) {
  return handle(
    request,
    async () => {
      const id = parseId(idParam, (await params).id, 'collection');
      const { config, store, files, knowledge } = getRuntime();
      knowledge.collection(id);
      const type = request.headers.get('content-type') ?? '';
      if (/^application\/json/i.test(type)) {
        const { attachmentId } = await readJson(request, addAttachmentToCollectionBody);
        const a = store.attachmentFile({ id: attachmentId });
        if (!a) throw new HearthError('not_found', 'attachmentId: there is no attached file with that id.');
        if (a.kind === 'image') throw new HearthError('unsupported_type', `${a.name} is an image: collections index text.`);
        return json({ files: knowledge.add(id, [a]), skipped: [] }, 201);
      }
      const received = await receiveUploadRequest(request, { files, maxUploadMb: config.HEARTH_MAX_UPLOAD_MB, archives: true });
      if (received.kind === 'zip') {
        const { received: inside, skipped } = await knowledge.receiveArchive(received, received.limits);
        return json({ files: knowledge.add(id, inside), skipped }, 201);
      }
      if (received.kind === 'image') {
        knowledge.forget([received.sha256]);
        throw new HearthError('unsupported_type', `${received.name} is an image: collections index text.`);
      }
      return json({ files: knowledge.add(id, [received]), skipped: [] }, 201);
    },
    FILE_OR_JSON,
  );
}
