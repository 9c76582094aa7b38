import { endpoints } from '@/lib/contract/endpoints';
import { on, refusal, reply, serve } from '@/lib/http/serve';
import { clientAddress } from '@/lib/services/auth/rate-limit';
import { isHttps, sessionCookie } from '@/lib/services/auth/sessions';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Logs in with the password: a session cookie on success, 401 on a wrong one, 429 after too many. */
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = serve(
  on(endpoints.login, async ({ request, body }) => {
    const { auth } = getRuntime();
    const { password } = await body();
    if (!auth.required) return reply({ ok: true, required: false });
    const attempt = auth.limiter.reserve(clientAddress(request));
    if (typeof attempt === 'number') {
      const waitMs = attempt;
      const minutes = Math.ceil(waitMs / 60_000);
      return refusal('rate_limited', `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, 429, {
        'Retry-After': String(Math.ceil(waitMs / 1000)),
      });
    }
    if (!(await auth.checkPassword(password))) throw new HearthError('unauthorized', 'That is not the password.');
    attempt.succeeded();
    const { token } = auth.sessions.start();
    return reply({ ok: true, required: true }, 200, {
      'Set-Cookie': sessionCookie(token, { maxAgeSeconds: auth.sessionMaxAgeSeconds, secure: isHttps(request) }),
    });
  }),
);
