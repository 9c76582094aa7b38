import { z } from 'zod';
import { handle, json, otherMethods, readJson } from '@/lib/http/http';
import { clientAddress } from '@/lib/services/auth/rate-limit';
import { isHttps, sessionCookie } from '@/lib/services/auth/sessions';
import { HearthError } from '@/lib/shared/errors';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

const loginBody = z.object({ password: z.string().max(10_000) }).strict();

/** Logs in with the password: a session cookie on success, 401 on a wrong one, 429 after too many. */
export function POST(request: Request) {
  return handle(request, async () => {
    const { auth } = getRuntime();
    const { password } = await readJson(request, loginBody);
    if (!auth.required) return json({ ok: true, required: false });
    const attempt = auth.limiter.reserve(clientAddress(request));
    if (typeof attempt === 'number') {
      const waitMs = attempt;
      const minutes = Math.ceil(waitMs / 60_000);
      return json(
        {
          error: { code: 'rate_limited', message: `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` },
        },
        429,
        { 'Retry-After': String(Math.ceil(waitMs / 1000)) },
      );
    }
    if (!(await auth.checkPassword(password))) throw new HearthError('unauthorized', 'That is not the password.');
    attempt.succeeded();
    const { token } = auth.sessions.start();
    return json({ ok: true, required: true }, 200, {
      'Set-Cookie': sessionCookie(token, { maxAgeSeconds: auth.sessionMaxAgeSeconds, secure: isHttps(request) }),
    });
  });
}
