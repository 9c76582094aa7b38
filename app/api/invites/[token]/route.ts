import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { clientAddress } from '@/lib/services/auth/rate-limit';
import { isHttps, sessionCookie } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Joining with an invitation link: the name and password chosen make the account (of the role
 * the invitation gives, in a library of its own), the link is used up, and the browser is logged
 * in. A link used or expired is 404, as one that never was.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.acceptInvite, async ({ request, params: { token }, body }) => {
    const { auth } = await getRuntime();
    const person = await auth.people.accept(token, await body());
    const { token: session } = await auth.sessions.start(person, {
      userAgent: request.headers.get('user-agent'),
      address: clientAddress(request),
    });
    return reply({ ok: true, required: true, person: { username: person.username, role: person.role } }, 201, {
      'Set-Cookie': sessionCookie(session, { maxAgeSeconds: auth.sessionMaxAgeSeconds, secure: isHttps(request) }),
    });
  }),
);
