import { handle, json, otherMethods } from '@/lib/http/http';
import { isHttps, sessionCookie, sessionTokenFrom } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods('POST');

/** Ends this browser's session: the row is deleted (the token is dead everywhere) and the cookie cleared. */
export function POST(request: Request) {
  return handle(request, () => {
    getRuntime().auth.sessions.end(sessionTokenFrom(request.headers.get('cookie')));
    return json({ ok: true }, 200, { 'Set-Cookie': sessionCookie('', { maxAgeSeconds: 0, secure: isHttps(request) }) });
  });
}
