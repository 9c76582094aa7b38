import { handle, json, otherMethods } from '@/lib/http/http';
import { sessionTokenFrom } from '@/lib/services/auth/sessions';
import { getRuntime } from '@/lib/services/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');

/** Whether a password is set and whether this browser is logged in (the page shows Log out from it). */
export function GET(request: Request) {
  return handle(request, () => {
    const { auth } = getRuntime();
    const loggedIn = auth.required && auth.sessions.valid(sessionTokenFrom(request.headers.get('cookie')));
    return json({ required: auth.required, loggedIn });
  });
}
