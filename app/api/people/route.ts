import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Everyone who may use this Hearth, and the invitations still open: the admin page's list. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.listPeople, async ({ rt }) => reply({ people: await rt.auth.people.list(), invites: await rt.auth.people.invites() })),
);
