import { endpoints } from '@/lib/contract/endpoints';
import { on, reply, serve } from '@/lib/http/serve';
import { sessionTokenFrom } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';
import { signOnSetup } from '@/lib/services/auth/oidc';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Whether a login is needed, whether this browser is logged in and as whom, whether the login form asks for a username, and whether single sign-on is offered. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.session, async ({ request }) => {
    const { auth, config } = await getRuntime();
    const required = await auth.required();
    const person = required
      ? ((await auth.vouched(request.headers)) ?? (await auth.sessions.person(sessionTokenFrom(request.headers.get('cookie')))))
      : null;
    const signOn = signOnSetup(config);
    return reply({
      required,
      loggedIn: Boolean(person),
      ...(person ? { person: { username: person.username, role: person.role } } : {}),
      usernames: required && !(await auth.people.only()),
      ...(signOn ? { signOn: { name: signOn.name } } : {}),
    });
  }),
);
