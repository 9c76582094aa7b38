import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** A new invitation link (one use, a week): its path is answered once; only an owner invites an owner. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.createInvite, async ({ body, rt }) => {
    const { role } = await body();
    const { token, expiresAt } = await rt.auth.people.invite(rt.person, role);
    return reply({ path: `/invite/${token}`, role, expiresAt }, 201);
  }),
);
