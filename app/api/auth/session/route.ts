import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { sessionTokenFrom } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Whether a password is set and whether this browser is logged in (the page shows Log out from it). */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.session, ({ request }) => {
    const { auth } = getRuntime();
    const loggedIn = auth.required && auth.sessions.valid(sessionTokenFrom(request.headers.get('cookie')));
    return reply({ required: auth.required, loggedIn });
  }),
);
