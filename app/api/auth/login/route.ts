import { endpoints } from '@/lib/contract/endpoints';
import { on, refusal, reply, serve } from '@/lib/http/serve';
import { clientAddress } from '@/lib/services/auth/rate-limit';
import { isHttps, sessionCookie } from '@/lib/services/auth/sessions';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const tooMany = (waitMs: number) => {
  const minutes = Math.ceil(waitMs / 60_000);
  return refusal('rate_limited', `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, 429, {
    'Retry-After': String(Math.ceil(waitMs / 1000)),
  });
};

/**
 * Logs in with a username and password (the username may be left out while one person can log
 * in): a session cookie on success, 401 on wrong ones, 429 after too many from one address or
 * for one account.
 */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.login, async ({ request, body }) => {
    const { auth } = await getRuntime();
    const { username, password } = await body();
    if (!(await auth.required())) return reply({ ok: true, required: false });
    const name = username?.trim().toLowerCase() || (await auth.people.only());
    if (!name) throw new HearthError('bad_request', 'username: say who you are (more than one person uses this Hearth).');
    const address = await auth.limiter.reserve(clientAddress(request));
    if (typeof address === 'number') return tooMany(address);
    const account = await auth.accountLimiter.reserve(name.slice(0, 100));
    if (typeof account === 'number') return tooMany(account);
    const person = await auth.login(name, password);
    if (!person) throw new HearthError('unauthorized', username ? 'That username and password do not match.' : 'That is not the password.');
    await address.succeeded();
    await account.succeeded();
    const { token } = await auth.sessions.start(person, { userAgent: request.headers.get('user-agent'), address: clientAddress(request) });
    return reply({ ok: true, required: true, person: { username: person.username, role: person.role } }, 200, {
      'Set-Cookie': sessionCookie(token, { maxAgeSeconds: auth.sessionMaxAgeSeconds, secure: isHttps(request) }),
    });
  }),
);
