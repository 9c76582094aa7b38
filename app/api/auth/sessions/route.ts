import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { sessionTokenFrom } from '@/lib/services/auth/sessions';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** The asking person's sessions (each browser they logged in from), newest first; `current` is this one. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.listSessions, async ({ request, rt }) =>
    reply({ sessions: await rt.auth.sessions.list(rt.person, sessionTokenFrom(request.headers.get('cookie'))) }),
  ),
);
