import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { isHttps, sessionCookie, sessionTokenFrom } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Ends this browser's session: the row is deleted (the token is dead everywhere) and the cookie cleared. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.logout, async ({ request }) => {
    await (await getRuntime()).auth.sessions.end(sessionTokenFrom(request.headers.get('cookie')));
    return reply({ ok: true }, 200, { 'Set-Cookie': sessionCookie('', { maxAgeSeconds: 0, secure: isHttps(request) }) });
  }),
);
