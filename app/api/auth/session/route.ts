import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { sessionTokenFrom } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Whether a login is needed, whether this browser is logged in and as whom, and whether the login form asks for a username. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.session, ({ request }) => {
    const { auth } = getRuntime();
    const required = auth.required();
    const person = required ? auth.sessions.person(sessionTokenFrom(request.headers.get('cookie'))) : null;
    return reply({
      required,
      loggedIn: Boolean(person),
      ...(person ? { person: { username: person.username, role: person.role } } : {}),
      usernames: required && !auth.people.only(),
    });
  }),
);
