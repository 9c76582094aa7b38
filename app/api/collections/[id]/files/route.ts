import { endpoints } from '@/lib/contract/endpoints';
import { addAttachmentToCollectionBody } from '@/lib/contract/requests';
import { receiveUploadRequest } from '@/lib/data/files/receive';
import { readJson } from '@/lib/http/handle';
import { on, reply, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';
import { ownCollection } from '@/lib/services/shared-collections';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** → 201 {files, skipped}: the files added, queued for indexing. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.addCollectionFiles, async ({ request, params: { id }, rt }) => {
    const { config, store, files, knowledge } = rt;
    await ownCollection(knowledge, await rt.sharedWithMe(), id);
    const type = request.headers.get('content-type') ?? '';
    if (/^application\/json/i.test(type)) {
      const { attachmentId } = await readJson(request, addAttachmentToCollectionBody);
      const a = await store.attachmentFile({ id: attachmentId });
      if (!a) throw new HearthError('not_found', 'attachmentId: there is no attached file with that id.');
      if (a.kind === 'image') throw new HearthError('unsupported_type', `${a.name} is an image: collections index text.`);
      return reply({ files: await knowledge.add(id, [a]), skipped: [] }, 201);
    }
    const received = await receiveUploadRequest(request, { files, maxUploadMb: config.HEARTH_MAX_UPLOAD_MB, archives: true });
    if (received.kind === 'zip') {
      const { received: inside, skipped } = await knowledge.receiveArchive(received, received.limits);
      return reply({ files: await knowledge.add(id, inside), skipped }, 201);
    }
    if (received.kind === 'image') {
      await knowledge.forget([received.sha256]);
      throw new HearthError('unsupported_type', `${received.name} is an image: collections index text.`);
    }
    return reply({ files: await knowledge.add(id, [received]), skipped: [] }, 201);
  }),
);
