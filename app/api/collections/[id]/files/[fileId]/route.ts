import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, reply, serve } from '@/lib/http/serve';
import { ownCollection, reachCollection } from '@/lib/services/shared-collections';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  /** ?from=&to=: the file's lines around a passage (the citation viewer highlights from..to), with the file's status. */
  on(endpoints.passage, async ({ params: { id, fileId }, query, rt }) =>
    reply(await (await reachCollection(rt.knowledge, rt.sharedWithMe(), id)).knowledge.excerpt(id, fileId, query())),
  ),
  /** The file leaves the collection with its passages. */
  on(endpoints.removeCollectionFile, async ({ params: { id, fileId }, rt }) => {
    await ownCollection(rt.knowledge, await rt.sharedWithMe(), id);
    await rt.knowledge.removeFile(id, fileId);
    return noContent();
  }),
);
