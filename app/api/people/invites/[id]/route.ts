import { endpoints } from '@/lib/contract/endpoints';
import { noContent, on, serve } from '@/lib/http/serve';
import { HearthError } from '@/lib/shared/errors';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** An invitation taken back before it was used: its link no longer works. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.withdrawInvite, async ({ params: { id }, rt }) => {
    if (!(await rt.auth.people.withdrawInvite(id))) throw new HearthError('not_found', 'There is no such invitation.');
    return noContent();
  }),
);
