import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { bulkThreads } from '@/lib/services/threads';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** One action on the threads selected in the sidebar: delete them, archive or unarchive them, or move them to a folder. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.bulkThreads, async ({ body, rt }) => reply({ count: await bulkThreads(rt, await body()) })),
);
