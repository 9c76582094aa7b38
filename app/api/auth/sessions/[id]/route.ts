import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Ends one of the asking person's sessions (a browser left logged in elsewhere); another's id is unknown here. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.endSession, async ({ params: { id }, rt }) => {
    if (!(await rt.auth.sessions.revoke(rt.person, id))) throw new HearthError('not_found', 'There is no session of yours with that id.');
    return noContent();
  }),
);
